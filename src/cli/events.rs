//! `signscope events` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct EventsArgs {}

pub fn run(_args: EventsArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope events` is not implemented yet")
}
