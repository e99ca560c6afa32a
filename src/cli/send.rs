//! `signscope send` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct SendArgs {}

pub fn run(_args: SendArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope send` is not implemented yet")
}
