//! The languages a program can be generated in.

/// The languages a program can be generated in, in the order the pickers list them (clap's
/// `ValueEnum::value_variants`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Lang {
    Python,
    Node,
    Php,
    Ruby,
    Go,
    Java,
    Csharp,
    Shell,
}

impl Lang {
    /// The name used on the command line (`--lang`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::Node => "node",
            Lang::Php => "php",
            Lang::Ruby => "ruby",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::Csharp => "csharp",
            Lang::Shell => "shell",
        }
    }

    /// The file name the program is meant to be saved as (the Java launcher and the C#
    /// compiler want the class in a file of its own name).
    pub fn file_name(self) -> &'static str {
        match self {
            Lang::Python => "sign.py",
            Lang::Node => "sign.js",
            Lang::Php => "sign.php",
            Lang::Ruby => "sign.rb",
            Lang::Go => "sign.go",
            Lang::Java => "Sign.java",
            Lang::Csharp => "Sign.cs",
            Lang::Shell => "sign.sh",
        }
    }

    /// What starts a line comment in the language.
    pub fn comment(self) -> &'static str {
        match self {
            Lang::Python | Lang::Ruby | Lang::Shell => "#",
            _ => "//",
        }
    }

    pub(super) fn template(self) -> &'static str {
        match self {
            Lang::Python => include_str!("../../assets/codegen/python.py.j2"),
            Lang::Node => include_str!("../../assets/codegen/node.js.j2"),
            Lang::Php => include_str!("../../assets/codegen/php.php.j2"),
            Lang::Ruby => include_str!("../../assets/codegen/ruby.rb.j2"),
            Lang::Go => include_str!("../../assets/codegen/go.go.j2"),
            Lang::Java => include_str!("../../assets/codegen/java.java.j2"),
            Lang::Csharp => include_str!("../../assets/codegen/csharp.cs.j2"),
            Lang::Shell => include_str!("../../assets/codegen/shell.sh.j2"),
        }
    }
}
