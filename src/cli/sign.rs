//! `signscope sign` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct SignArgs {}

pub fn run(_args: SignArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope sign` is not implemented yet")
}
