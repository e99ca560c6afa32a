//! The interactive workbench (placeholder until its issue lands).

pub fn run(_profile: Option<String>) -> anyhow::Result<u8> {
    anyhow::bail!("the workbench is not implemented yet")
}

pub mod events_view;
pub mod history_view;
mod line_input;
pub mod profiles_view;
