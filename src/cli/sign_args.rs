//! The arguments of `signscope sign` (apart from the command, so that the profile's saved
//! request and the command can both read them).

use std::path::PathBuf;

use super::request_flags::RequestFlags;
use crate::codegen::Lang;
use crate::core::SigningForm;

/// Where printed curl commands and raw requests send to unless `--indexing-url` says otherwise:
/// the local server's default address (`signscope serve`).
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// The labelled signing text with visible line ends, then the signature and headers.
    Text,
    /// One JSON object: canonical, canonical_b64, signature, headers.
    Json,
    /// A curl command that sends the exact body.
    Curl,
    /// The raw HTTP/1.1 request.
    Http,
    /// Only the signature.
    Signature,
    /// A standalone program in --lang LANG that signs this request the same way.
    Code,
}

#[derive(Debug, clap::Args)]
#[command(mut_arg("method", |a| a.required_unless_present("profile")))]
#[command(mut_arg("path", |a| a.required_unless_present("profile")))]
pub struct SignArgs {
    /// Take the request from a saved profile: its request (method, path, query, prefix, API key,
    /// content type, algorithm, body), its REST key source and its indexing URL. Flags given as
    /// well override the profile's values.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// The profile's saved request to sign (default: its first; `signscope profile request list
    /// NAME` lists them).
    #[arg(long, value_name = "NAME", requires = "profile")]
    pub request: Option<String>,
    /// Method, path, query and body (method and path are needed unless --profile gives them).
    #[command(flatten)]
    pub request_flags: RequestFlags,
    /// Timestamp to sign (default: now, as YYYY-MM-DDThh:mm:ss.mmmZ).
    #[arg(long, value_name = "TS")]
    pub timestamp: Option<String>,
    /// The public API key.
    #[arg(long, value_name = "K", required_unless_present = "profile")]
    pub api_key: Option<String>,
    /// The REST key (default: the profile's).
    #[command(flatten)]
    pub key: super::keys::RestKeyArgs,
    /// Content-Type value to sign and send (default: application/json).
    #[arg(long, value_name = "CT")]
    pub content_type: Option<String>,
    /// Algorithm name to sign and send (default: HmacSHA384).
    #[arg(long, value_name = "A")]
    pub auth_algo: Option<String>,
    /// Vendor prefix of the header names (X-<PREFIX>-TIMESTAMP...; default: SVC).
    #[arg(long, value_name = "X")]
    pub header_prefix: Option<String>,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,
    /// How the path and query lines are signed: `standard` (the documented form) or `php-sdk`
    /// (as the vendor's PHP SDK signs: '?' before the query, trailing '/' trimmed from the path;
    /// see docs/signing.md). The request printed or sent is the same; only the signature differs.
    #[arg(long, value_name = "FORM", default_value = "standard")]
    pub form: SigningForm,
    /// The language of the program printed by --output code.
    #[arg(
        long,
        value_enum,
        value_name = "LANG",
        required_if_eq("output", "code")
    )]
    pub lang: Option<Lang>,
    /// Print the signing text built step by step (rule, bytes added, HMAC, base64, header).
    #[arg(long, conflicts_with = "output")]
    pub explain: bool,
    /// Where the printed curl command or raw request sends to (--output curl|http; default: the
    /// profile's indexing URL, else http://127.0.0.1:8080).
    #[arg(long, value_name = "URL")]
    pub indexing_url: Option<String>,
}

pub(crate) enum BodySource {
    File(PathBuf),
    Stdin,
    Text(String),
    /// A profile's saved request's body.
    Saved(bytes::Bytes),
}
