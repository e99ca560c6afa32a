//! `signscope serve` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct ServeArgs {}

pub fn run(_args: ServeArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope serve` is not implemented yet")
}
