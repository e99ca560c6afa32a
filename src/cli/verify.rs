//! `signscope verify` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {}

pub fn run(_args: VerifyArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope verify` is not implemented yet")
}
