//! `signscope profile` (placeholder until its issue lands).

#[derive(Debug, clap::Args)]
pub struct ProfileArgs {}

pub fn run(_args: ProfileArgs) -> anyhow::Result<u8> {
    anyhow::bail!("`signscope profile` is not implemented yet")
}
