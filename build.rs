//! Build script: the commit `signscope --version` names (build/commit.rs says where it is
//! looked for, and what is printed outside a git checkout).

include!("build/commit.rs");

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let version = std::env::var("CARGO_PKG_VERSION").expect("set by cargo");
    let found = find(&dir);
    println!(
        "cargo:rustc-env=SIGNSCOPE_VERSION={}",
        version_text(&version, found.as_ref())
    );
    // Re-run when the commit changes, not on every source edit.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/commit.rs");
    for path in found.iter().flat_map(|f| &f.watch) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
