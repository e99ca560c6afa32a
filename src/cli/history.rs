//! `signscope history` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {}

pub fn run(_args: HistoryArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope history` is not implemented yet")
}
