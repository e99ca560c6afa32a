//! The catalogue of client mistakes (docs/diagnosis.md, "The catalogue"): one [`Def`] per
//! mistake, holding everything about it, its id, part, sentence, rank, what it does to a
//! signing and the forms the search tries. Adding a mistake is adding one entry here: the
//! search (`search.rs`) and the exercises (`src/learn/exercise.rs`) go through the entries and
//! name none. The transforms the entries use (head changes, body re-serialisations, timestamp
//! shifts) are in the leaf modules `head.rs`, `body.rs` and `signing.rs`, which import nothing
//! of this one (`tests/architecture.rs` refuses import loops).

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

use super::body::{form_words, After, Recipe, Style, STYLES};
use super::head::{
    clock_unit_ms, other_orders, percent_decoded, shifted_timestamp, timestamp_forms,
    without_param, Change,
};
use super::mistake::{Arg, Def, Form, Mistake, Part};
use super::signing::{Encoding, How};
use crate::core::canonical::LineLabel;
use crate::core::time::parse_timestamp;

/// The host of the vendor's indexing service, tried as a full URL on the path line.
pub const VENDOR_INDEXING_HOST: &str = "indexing.ksearchnet.com";

/// The query the vendor documents for its indexing API (a test request), tried as a query
/// removed after signing when the request has none.
const VENDOR_TEST_QUERY: &str = "test=1";

/// A query with more parameters than this is not searched for one added after signing.
const MAX_QUERY_PARAMS: usize = 16;

/// The prefixes of the vendor header names a client may mix up.
const KNOWN_PREFIXES: [&str; 2] = ["SVC", "KLEVU"];

/// Content-Type values a client library may sign while sending `application/json`.
const CONTENT_TYPE_VARIANTS: [&str; 5] = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=UTF-8",
    "application/json;charset=utf-8",
    "application/json;charset=UTF-8",
];

/// The order of the four header lines sorted by name, as a client that keeps its headers in a
/// sorted map signs them: Content-Type, APIKEY, AUTH-ALGO, TIMESTAMP (`C` sorts before `X`, in
/// either case).
pub const NAME_SORTED_ORDER: [u8; 4] = [3, 1, 2, 0];

/// Every mistake the diagnosis knows, in the order the search tries them within their kind
/// (head, key, encoding, hash, body).
pub static CATALOGUE: &[Def] = &[
    // The head: the method, path and query lines, the header lines.
    Def {
        code: "QUESTION_MARK_BEFORE_QUERY",
        part: Part::Query,
        composes: true,
        rank: 1,
        explanation: "signed a '?' before the query on the query line (`?test=1` for the query `test=1`)",
        label: "signed a '?' before the query",
        php_sdk: Some((LineLabel::Query, Change::PhpQuery)),
        forms: |d, _| vec![Form::of(d, Arg::None, How::Head(Change::QueryMark), true)],
        ..Def::PLAIN
    },
    Def {
        code: "EMPTY_QUERY_LINE_OMITTED",
        part: Part::Query,
        rank: 1,
        explanation: "signed no query line, where a request without a query has an empty one (the path line followed by two LFs)",
        label: "left out the empty query line",
        // Only an empty query line can be left out as this mistake (a query's line left out
        // is a query removed after signing).
        forms: |d, c| match c.base.query.as_deref() {
            Some("") => vec![Form::of(d, Arg::None, How::Head(Change::QueryOmitted), true)],
            _ => Vec::new(),
        },
        ..Def::PLAIN
    },
    Def {
        code: "TRAILING_SLASH_TRIMMED",
        part: Part::Path,
        composes: true,
        rank: 1,
        explanation: "signed the path without its trailing '/'",
        label: "trimmed the path's trailing '/'",
        php_sdk: Some((LineLabel::Path, Change::PathTrimmed)),
        forms: |d, _| vec![Form::of(d, Arg::None, How::Head(Change::PathTrimmed), true)],
        ..Def::PLAIN
    },
    Def {
        code: "CRLF_LINE_ENDINGS",
        part: Part::LineEnd,
        explanation: "signed the lines joined with CRLF, not a single LF",
        label: "joined the lines with CRLF",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Head(Change::Crlf), true)],
        ..Def::PLAIN
    },
    Def {
        code: "LOWERCASE_HEADER_NAMES",
        part: Part::NameCase,
        explanation: "signed the header names in lower case (the text has X-SVC-TIMESTAMP=..., Content-Type=...)",
        label: "wrote the header names in lower case",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Head(Change::LowerNames), true)],
        ..Def::PLAIN
    },
    Def {
        code: "LOWERCASE_METHOD",
        part: Part::Method,
        explanation: "signed the method in lower case",
        label: "wrote the method in lower case",
        forms: |d, c| {
            let lower = Change::Method(c.base.method.to_ascii_lowercase());
            vec![Form::of(d, Arg::None, How::Head(lower), true)]
        },
        ..Def::PLAIN
    },
    Def {
        code: "QUERY_PERCENT_DECODED",
        part: Part::Query,
        composes: true,
        explanation: "signed the query percent-decoded, not as sent",
        label: "signed the query percent-decoded",
        // `Arg::Flag`: with `+` read as a space, as form decoding does.
        forms: |d, c| {
            let query = c.base.query.clone().unwrap_or_default();
            let mut out = Vec::new();
            if query.contains('%') || query.contains('+') {
                let mut seen = vec![query.clone()];
                for plus in [false, true] {
                    let decoded = percent_decoded(&query, plus);
                    if !seen.contains(&decoded) {
                        seen.push(decoded);
                        let how = How::Head(Change::QueryDecoded { plus });
                        out.push(Form::of(d, Arg::Flag(plus), how, true));
                    }
                }
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "QUERY_PARAMS_SORTED",
        part: Part::Query,
        composes: true,
        explanation: "signed the query parameters sorted, not in the order sent",
        label: "signed the query parameters sorted",
        forms: |d, c| match c.base.query.as_deref() {
            Some(q) if q.contains('&') => {
                vec![Form::of(d, Arg::None, How::Head(Change::QuerySorted), true)]
            }
            _ => Vec::new(),
        },
        ..Def::PLAIN
    },
    Def {
        code: "QUERY_REMOVED_AFTER_SIGNING",
        part: Part::Query,
        composes: true,
        after_signing: true,
        explanation: "the query was removed from the URL after signing",
        label: "signed a query then removed from the URL",
        detail: |a| match a {
            Arg::Text(removed) => Some(format!(
                "the query `{removed}` was removed from the URL after signing (it is in the signed query line)"
            )),
            _ => None,
        },
        // A query the request no longer has cannot be rebuilt from it: only the one the
        // vendor documents is tried, for a request with no query.
        forms: |d, c| {
            if !c.base.query.as_deref().unwrap_or("").is_empty() {
                return Vec::new();
            }
            let removed = VENDOR_TEST_QUERY.to_string();
            let how = How::Head(Change::Query(removed.clone()));
            vec![Form::of(d, Arg::Text(removed), how, false)]
        },
        ..Def::PLAIN
    },
    Def {
        code: "QUERY_ADDED_AFTER_SIGNING",
        part: Part::Query,
        composes: true,
        after_signing: true,
        explanation: "query parameters were added to the URL after signing",
        label: "signed the URL before parameters were added",
        detail: |a| match a {
            Arg::Text(added) => Some(format!(
                "the query parameters `{added}` were added to the URL after signing (they are not in the signed query line)"
            )),
            _ => None,
        },
        // Each parameter, or all of them (a library appending `?test=1`).
        forms: |d, c| {
            let query = c.base.query.clone().unwrap_or_default();
            if query.is_empty() {
                return Vec::new();
            }
            let mut out = Vec::new();
            let mut seen = vec![query.clone()];
            let params: Vec<&str> = query.split('&').collect();
            if params.len() <= MAX_QUERY_PARAMS {
                for (i, p) in params.iter().enumerate() {
                    let signed = without_param(&query, i);
                    if !seen.contains(&signed) {
                        seen.push(signed.clone());
                        let how = How::Head(Change::Query(signed));
                        out.push(Form::of(d, Arg::Text(p.to_string()), how, false));
                    }
                }
            }
            if !seen.contains(&String::new()) {
                let how = How::Head(Change::Query(String::new()));
                out.push(Form::of(d, Arg::Text(query), how, false));
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "FULL_URL_AS_PATH",
        part: Part::Path,
        composes: true,
        explanation: "signed the full URL on the path line, not the path alone",
        label: "signed the full URL as the path",
        // The Host header's (https and http), and the vendor's host.
        forms: |d, c| {
            let mut urls: Vec<String> = Vec::new();
            if let Some(h) = c.host.filter(|h| !h.is_empty()) {
                urls.push(format!("https://{h}"));
                urls.push(format!("http://{h}"));
            }
            let vendor = format!("https://{VENDOR_INDEXING_HOST}");
            if !urls.contains(&vendor) {
                urls.push(vendor);
            }
            urls.into_iter()
                .map(|url| {
                    let how = How::Head(Change::PathUrl(url.clone()));
                    Form::of(d, Arg::Text(url), how, true)
                })
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "PATH_PERCENT_DECODED",
        part: Part::Path,
        composes: true,
        explanation: "signed the path percent-decoded, not as sent",
        label: "signed the path percent-decoded",
        forms: |d, c| {
            if !c.base.path.contains('%') {
                return Vec::new();
            }
            vec![Form::of(d, Arg::None, How::Head(Change::PathDecoded), true)]
        },
        ..Def::PLAIN
    },
    Def {
        code: "TIMESTAMP_FORM_DIFFERS",
        part: Part::Timestamp,
        explanation: "signed the same instant in another form than the text of the timestamp header it sent",
        label: "signed the timestamp in another form",
        detail: |a| match a {
            Arg::Text(signed) => Some(format!(
                "signed the same instant in another form ({signed}) than the text of the timestamp header it sent"
            )),
            _ => None,
        },
        // Seconds, milliseconds or microseconds, `Z` or `+00:00`.
        forms: |d, c| {
            let ts = &c.base.values[0];
            let Some(parsed) = parse_timestamp(ts) else {
                return Vec::new();
            };
            let mut seen = vec![ts.clone()];
            let mut out = Vec::new();
            for f in timestamp_forms(parsed.time) {
                if !seen.contains(&f) {
                    seen.push(f.clone());
                    let how = How::Head(Change::Timestamp(f.clone()));
                    out.push(Form::of(d, Arg::Text(f), how, true));
                }
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "TIMESTAMP_MILLISECONDS_DROPPED",
        part: Part::Timestamp,
        rank: 1,
        explanation: "signed a timestamp with milliseconds and sent it without them (`…:46.372Z` signed, `…:46Z` sent)",
        label: "dropped the milliseconds from the sent timestamp",
        detail: |a| match a {
            Arg::Text(signed) => Some(format!(
                "signed the timestamp {signed} and sent it without its milliseconds"
            )),
            _ => None,
        },
        // A whole-second header: the instants of that second with milliseconds, `.001` up,
        // 16 per unit of the clock search's reach (all 999 once it reaches a minute either
        // way; docs/diagnosis.md D9). `.000` is the same instant in another form.
        forms: |d, c| {
            let ts = &c.base.values[0];
            if clock_unit_ms(ts) != Some(1000) {
                return Vec::new();
            }
            let Some(parsed) = parse_timestamp(ts) else {
                return Vec::new();
            };
            let z = ts.ends_with(['Z', 'z']);
            let last = c.clock_reach.saturating_mul(16).clamp(0, 999);
            (1..=last)
                .map(|ms| {
                    let signed = (parsed.time + chrono::Duration::milliseconds(ms))
                        .to_rfc3339_opts(chrono::SecondsFormat::Millis, z);
                    let how = How::Head(Change::Timestamp(signed.clone()));
                    Form::of(d, Arg::Text(signed), how, false)
                })
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "TIMESTAMP_DIFFERS",
        part: Part::Timestamp,
        explanation: "signed another instant than the timestamp header it sent, as when the clock is read twice",
        label: "signed another instant (a clock read twice)",
        detail: |a| match a {
            Arg::Ms(offset_ms) => {
                let dir = if *offset_ms > 0 { "after" } else { "before" };
                let abs = offset_ms.unsigned_abs();
                Some(format!(
                    "signed a time {}.{:03} s {dir} the timestamp header it sent, as when the clock is read twice",
                    abs / 1000,
                    abs % 1000
                ))
            }
            _ => None,
        },
        // Outward from the header's instant in units of its precision, as far as the clock
        // search reaches (docs/diagnosis.md D1); in pairs one unit either way. `Arg::Ms`: the
        // instant signed minus the one sent.
        forms: |d, c| {
            let ts = &c.base.values[0];
            let Some(parsed) = parse_timestamp(ts) else {
                return Vec::new();
            };
            // A set, not a list: the clock search may try thousands of instants.
            let mut seen = std::collections::HashSet::from([ts.clone()]);
            seen.extend(timestamp_forms(parsed.time));
            let unit = clock_unit_ms(ts).unwrap_or(0);
            let mut out = Vec::new();
            for i in 1..=c.clock_reach {
                for off in [i * unit, -i * unit] {
                    if let Some(text) = shifted_timestamp(ts, off) {
                        if seen.insert(text.clone()) {
                            let how = How::Head(Change::Timestamp(text));
                            out.push(Form::of(d, Arg::Ms(off), how, i == 1));
                        }
                    }
                }
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "CONTENT_TYPE_DIFFERS",
        part: Part::ContentType,
        explanation: "signed another Content-Type value than the one it sent",
        label: "signed another Content-Type",
        detail: |a| match a {
            Arg::Text(signed) => Some(format!(
                "signed the Content-Type \"{signed}\" but sent another value"
            )),
            _ => None,
        },
        forms: |d, c| {
            CONTENT_TYPE_VARIANTS
                .iter()
                .filter(|ct| **ct != c.base.values[3])
                .map(|ct| {
                    let how = How::Head(Change::ContentType(ct.to_string()));
                    Form::of(d, Arg::Text(ct.to_string()), how, true)
                })
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "HEADER_PREFIX_DIFFERS",
        part: Part::NamePrefix,
        explanation: "signed the vendor header names with another prefix than the one it sent",
        label: "signed another header name prefix",
        detail: |a| match a {
            Arg::Two(signed, sent) => Some(format!(
                "signed the header names with the prefix X-{signed}- but sent X-{sent}-"
            )),
            _ => None,
        },
        // `Arg::Two`: the prefix signed, the one sent.
        forms: |d, c| {
            KNOWN_PREFIXES
                .iter()
                .filter(|p| **p != c.base.prefix)
                .map(|p| {
                    let arg = Arg::Two(p.to_string(), c.base.prefix.clone());
                    Form::of(d, arg, How::Head(Change::Prefix(p.to_string())), true)
                })
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "HEADER_LINES_REORDERED",
        part: Part::Order,
        explanation: "signed the header lines in another order than TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type",
        label: "put the header lines in another order",
        detail: |a| match a {
            Arg::Order(order) => {
                const NAMES: [&str; 4] = ["TIMESTAMP", "APIKEY", "AUTH-ALGO", "Content-Type"];
                let got: Vec<&str> = order.iter().map(|&i| NAMES[i as usize]).collect();
                Some(format!(
                    "signed the header lines in another order: {}, where the text has TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type",
                    got.join(", ")
                ))
            }
            _ => None,
        },
        // Every one of the 23 other orders alone; in pairs the order the headers were sent in
        // and the order sorted by name (a client that builds both from one map, or from a
        // sorted one). `Arg::Order`: the lines as signed, by their index in the required order.
        forms: |d, c| {
            let paired: Vec<[u8; 4]> = c.sent_order.into_iter().chain([NAME_SORTED_ORDER]).collect();
            other_orders()
                .into_iter()
                .map(|o| Form::of(d, Arg::Order(o), How::Head(Change::Order(o)), paired.contains(&o)))
                .collect()
        },
        ..Def::PLAIN
    },
    // The key.
    Def {
        code: "KEY_WHITESPACE_TRIMMED",
        part: Part::Key,
        explanation: "signed with the REST key trimmed of its whitespace",
        label: "signed with the REST key trimmed",
        forms: |d, c| vec![key(d, Arg::None, c.key.trim())],
        ..Def::PLAIN
    },
    Def {
        code: "KEY_WITH_TRAILING_NEWLINE",
        part: Part::Key,
        explanation: "signed with the REST key followed by a newline, as a key read from a file ends",
        label: "signed with the REST key and a LF",
        forms: |d, c| {
            ["\n", "\r\n"]
                .iter()
                .map(|nl| key(d, Arg::None, &format!("{}{nl}", c.key)))
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "KEY_QUOTED",
        part: Part::Key,
        explanation: "signed with the REST key inside its quotes, or without the quotes it was given with",
        label: "signed with the REST key in quotes",
        forms: |d, c| {
            let k = c.key;
            let mut out = Vec::new();
            for q in ['"', '\''] {
                out.push(key(d, Arg::None, &format!("{q}{k}{q}")));
                if k.len() >= 2 && k.starts_with(q) && k.ends_with(q) {
                    out.push(key(d, Arg::None, &k[1..k.len() - 1]));
                }
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "KEY_BASE64_DECODED",
        part: Part::Key,
        explanation: "signed with the bytes the REST key decodes to as base64, not the key's text",
        label: "signed with the REST key base64-decoded",
        forms: |d, c| {
            // The decoders refuse a character of neither alphabet; a short key is no encoding.
            let k = c.key;
            if k.len() < 8 {
                return Vec::new();
            }
            let decoded = STANDARD
                .decode(k)
                .or_else(|_| STANDARD_NO_PAD.decode(k))
                .or_else(|_| URL_SAFE.decode(k))
                .or_else(|_| URL_SAFE_NO_PAD.decode(k));
            decoded
                .into_iter()
                .map(|b| Form::of(d, Arg::None, How::Key(b), true))
                .collect()
        },
        ..Def::PLAIN
    },
    Def {
        code: "PUBLIC_API_KEY_AS_SECRET",
        part: Part::Key,
        explanation: "signed with the public API key, not the REST key",
        label: "signed with the public API key",
        forms: |d, c| match c.base.values[1].as_str() {
            "" => Vec::new(),
            api_key => vec![key(d, Arg::None, api_key)],
        },
        ..Def::PLAIN
    },
    Def {
        code: "OTHER_ACCOUNT_KEY",
        part: Part::Key,
        explanation: "signed with the REST key of another account than the API key it sent",
        label: "signed with another account's REST key",
        detail: |a| match a {
            Arg::Text(api_key) => Some(format!(
                "signed with the REST key of the account {api_key}, not that of the API key it sent"
            )),
            _ => None,
        },
        // `Arg::Text`: that account's API key.
        forms: |d, c| {
            c.others
                .iter()
                .map(|(name, secret)| key(d, Arg::Text(name.clone()), secret.expose()))
                .collect()
        },
        ..Def::PLAIN
    },
    // How the digest is sent, and the hash function: the provided signature is decoded into
    // every digest it can be, so these cost no search.
    Def {
        code: "BASE64_PADDING_MISSING",
        part: Part::Encoding,
        rank: 0,
        explanation: "sent base64 without its '=' padding",
        label: "sent base64 without its padding",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Encoding(Encoding::Unpadded), true)],
        ..Def::PLAIN
    },
    Def {
        code: "URL_SAFE_BASE64",
        part: Part::Encoding,
        rank: 0,
        explanation: "sent the HMAC in URL-safe base64 ('-' and '_'), not standard base64",
        label: "sent URL-safe base64",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Encoding(Encoding::UrlSafe), true)],
        ..Def::PLAIN
    },
    Def {
        code: "HEX_INSTEAD_OF_BASE64",
        part: Part::Encoding,
        rank: 0,
        explanation: "sent the HMAC as hex, not base64",
        label: "sent the HMAC as hex",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Encoding(Encoding::Hex), true)],
        ..Def::PLAIN
    },
    Def {
        code: "SHA256_INSTEAD_OF_SHA384",
        part: Part::Hash,
        rank: 0,
        explanation: "used HMAC-SHA256, not HMAC-SHA384",
        label: "used HMAC-SHA256",
        forms: |d, _| vec![Form::of(d, Arg::None, How::Hash(ring::hmac::HMAC_SHA256), true)],
        ..Def::PLAIN
    },
    // The body, signed another way than it was sent.
    Def {
        code: "EMPTY_BODY_SIGNED",
        part: Part::Body,
        explanation: "signed an empty body and sent one",
        label: "signed an empty body",
        forms: |d, c| {
            if c.body.is_empty() {
                return Vec::new();
            }
            vec![body(d, Recipe { empty: true, ..Recipe::default() })]
        },
        ..Def::PLAIN
    },
    Def {
        code: "TRAILING_LF_AFTER_BODY",
        part: Part::Body,
        rank: 1,
        explanation: "signed a LF after the body that the body sent does not end with (added while signing, or removed from the body after signing)",
        label: "added a LF after the body",
        forms: |d, _| vec![body(d, Recipe { trailing_lf: true, ..Recipe::default() })],
        ..Def::PLAIN
    },
    Def {
        code: "BODY_RESERIALISED_COMPACT",
        part: Part::Body,
        rank: 4,
        explanation: "signed the body re-serialised compactly, not the bytes it sent",
        label: "signed the body re-serialised compactly",
        // Compact, or Python's `", "` and `": "`; with a LF after it, in pairs.
        forms: |d, _| {
            let styles = [Style::Compact, Style::Python];
            let mut out: Vec<Form> = styles.iter().map(|&s| body(d, styled(s, false))).collect();
            out.extend(styles.iter().map(|&s| body_pair(d, "TRAILING_LF_AFTER_BODY", lf(styled(s, false)))));
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "BODY_RESERIALISED_PRETTY",
        part: Part::Body,
        rank: 4,
        explanation: "signed the body pretty-printed, not the bytes it sent",
        label: "signed the body pretty-printed",
        // 2 or 4 spaces; with a LF after it, in pairs.
        forms: |d, _| {
            let styles = [Style::Pretty2, Style::Pretty4];
            let mut out: Vec<Form> = styles.iter().map(|&s| body(d, styled(s, false))).collect();
            out.extend(styles.iter().map(|&s| body_pair(d, "TRAILING_LF_AFTER_BODY", lf(styled(s, false)))));
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "BODY_SORTED_KEYS",
        part: Part::Body,
        rank: 5,
        explanation: "signed the body with its keys sorted, not the bytes it sent",
        label: "signed the body with its keys sorted",
        // Compact or Python's spacing; in pairs pretty-printed, or with `\u` escapes, `\/` or a
        // LF after it.
        forms: |d, _| {
            let mut out = vec![body(d, styled(Style::Compact, true)), body(d, styled(Style::Python, true))];
            for s in [Style::Pretty2, Style::Pretty4] {
                let mut f = body(d, styled(s, true));
                f.mistakes.push(Mistake::named("BODY_RESERIALISED_PRETTY"));
                out.push(f);
            }
            for s in [Style::Compact, Style::Python] {
                let r = styled(s, true);
                out.push(body_pair(d, "BODY_UNICODE_ESCAPED", Recipe { toggle_unicode: true, ..r }));
                out.push(body_pair(d, "BODY_SLASHES_ESCAPED", Recipe { toggle_slashes: true, ..r }));
                out.push(body_pair(d, "TRAILING_LF_AFTER_BODY", lf(r)));
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "BODY_UNICODE_ESCAPED",
        part: Part::Body,
        explanation: "signed the body's non-ASCII characters as \\u escapes and sent them as UTF-8, or the reverse",
        label: "signed non-ASCII as \\u escapes, or the reverse",
        // In pairs with `\/` or a LF after it.
        forms: |d, _| {
            let r = Recipe { toggle_unicode: true, ..Recipe::default() };
            vec![
                body(d, r),
                body_pair(d, "BODY_SLASHES_ESCAPED", Recipe { toggle_slashes: true, ..r }),
                body_pair(d, "TRAILING_LF_AFTER_BODY", lf(r)),
            ]
        },
        ..Def::PLAIN
    },
    Def {
        code: "BODY_SLASHES_ESCAPED",
        part: Part::Body,
        explanation: "signed the body's '/' as '\\/' (as PHP's json_encode writes it) and sent it unescaped, or the reverse",
        label: "signed '/' as '\\/', or the reverse",
        // In pairs with a LF after it.
        forms: |d, _| {
            let r = Recipe { toggle_slashes: true, ..Recipe::default() };
            vec![body(d, r), body_pair(d, "TRAILING_LF_AFTER_BODY", lf(r))]
        },
        ..Def::PLAIN
    },
    // Changes to the body after signing (docs/diagnosis.md D8): each form undoes the change on
    // the body sent, giving the body that was signed.
    Def {
        code: "LF_ADDED_AFTER_SIGNING",
        part: Part::Body,
        after_signing: true,
        rank: 1,
        explanation: "a LF was appended to the body after signing",
        label: "signed the body before a LF was appended",
        detail: |a| match a {
            Arg::Flag(crlf) => Some(format!(
                "{} was appended to the body after signing (the body sent ends with it, the signed one does not)",
                if *crlf { "a CRLF" } else { "a LF" }
            )),
            _ => None,
        },
        // `Arg::Flag`: a CRLF, not a LF alone.
        forms: |d, c| {
            let crlf = if c.body.ends_with(b"\r\n") {
                true
            } else if c.body.ends_with(b"\n") {
                false
            } else {
                return Vec::new();
            };
            vec![after(d, Arg::Flag(crlf), After::LfAdded { crlf }, Recipe::default())]
        },
        ..Def::PLAIN
    },
    Def {
        code: "LINE_ENDS_CONVERTED_AFTER_SIGNING",
        part: Part::Body,
        after_signing: true,
        rank: 2,
        explanation: "the body's line ends were converted after signing",
        label: "signed the body before its line ends changed",
        detail: |a| match a {
            Arg::Flag(to_crlf) => Some(format!(
                "the body's line ends were converted after signing: {}",
                if *to_crlf {
                    "the signed body has LF where the body sent has CRLF"
                } else {
                    "the signed body has CRLF where the body sent has LF"
                }
            )),
            _ => None,
        },
        // `Arg::Flag`: LF became CRLF (the body sent has CRLF), or CRLF became LF.
        forms: |d, c| {
            let mut out = Vec::new();
            if memchr::memmem::find(c.body, b"\r\n").is_some() {
                out.push(after(d, Arg::Flag(true), After::LineEnds { to_crlf: true }, Recipe::default()));
            }
            if memchr::memchr(b'\n', c.body).is_some() {
                out.push(after(d, Arg::Flag(false), After::LineEnds { to_crlf: false }, Recipe::default()));
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "BODY_RESERIALISED_AFTER_SIGNING",
        part: Part::Body,
        after_signing: true,
        rank: 6,
        explanation: "the body was re-serialised after signing (the same JSON, written another way)",
        label: "signed the body before it was re-serialised",
        detail: |a| match a {
            Arg::Text(signed) => Some(format!(
                "the body was re-serialised after signing: the signed body is the same JSON written {signed}"
            )),
            _ => None,
        },
        // Each style with its escapes changed (`\u`, `\/` or both, as PHP's json_encode signed
        // and JSON_PRETTY_PRINT sent): a re-serialisation alone, or a toggle alone, is a
        // mistake while signing. `Arg::Text`: the form signed, in words.
        forms: |d, c| {
            if !is_json(c.body) {
                return Vec::new();
            }
            let mut out = Vec::new();
            for s in STYLES {
                for (u, sl) in [(true, false), (false, true), (true, true)] {
                    let r = Recipe { toggle_unicode: u, toggle_slashes: sl, ..styled(s, false) };
                    let arg = Arg::Text(form_words(s, u, sl));
                    out.push(after(d, arg, After::Reserialised, r));
                }
            }
            out
        },
        ..Def::PLAIN
    },
    Def {
        code: "CURL_DATA_FILE_READ",
        part: Part::Body,
        after_signing: true,
        rank: 2,
        explanation: "curl read the body with -d @file, which drops the file's CR and LF bytes, so the body sent lacks the line ends that were signed",
        label: "signed a file curl -d @file sent without line ends",
        detail: |a| match a {
            Arg::Text(file) => Some(format!(
                "curl read the body with -d @file, which drops the file's CR and LF bytes: the signed body is {file}, the body sent is that without its line ends"
            )),
            _ => None,
        },
        // The file as written when it is at hand; otherwise, for a JSON body with no CR or LF
        // left, the file a JSON formatter writes (2 or 4 spaces, LF or CRLF, with or without a
        // final line end). `Arg::Text`: the signed file, in words.
        forms: |d, c| {
            let mut out = Vec::new();
            if is_json(c.body) && memchr::memchr2(b'\r', b'\n', c.body).is_none() {
                for style in [Style::Pretty2, Style::Pretty4] {
                    for crlf in [false, true] {
                        for eol in [false, true] {
                            let n = if style == Style::Pretty2 { 2 } else { 4 };
                            let file = format!(
                                "the JSON indented by {n} spaces on {} lines{}",
                                if crlf { "CRLF" } else { "LF" },
                                if eol { ", with a line end after it" } else { "" }
                            );
                            let a = After::CurlIndented { style, crlf, eol };
                            out.push(after(d, Arg::Text(file), a, Recipe::default()));
                        }
                    }
                }
            }
            if c.curl_file.is_some_and(|f| f != c.body) {
                let arg = Arg::Text("the file as written".to_string());
                out.push(after(d, arg, After::CurlFile, Recipe::default()));
            }
            out
        },
        ..Def::PLAIN
    },
];

impl Mistake {
    /// The mistake of the catalogue with this id, in its form without specifics.
    ///
    /// # Panics
    /// When no entry has that id (a typo in the catalogue itself; the tests walk every entry).
    pub fn named(code: &str) -> Mistake {
        let def = CATALOGUE
            .iter()
            .find(|d| d.code == code)
            .unwrap_or_else(|| panic!("no mistake {code} in the catalogue"));
        Mistake::new(def, Arg::None)
    }
}

/// The mistakes that make up the vendor's PHP SDK form (docs/diagnosis.md D3) for this
/// request, each with the change the form makes, in the order of the lines: none when the form
/// signs the documented text, as for `/v2/batch` with no query. The query line differs only for
/// a query PHP does not count as empty (`""` and `"0"` are).
pub fn php_sdk_form(path: &str, query: &str) -> Vec<(Mistake, Change)> {
    let query_counts = !query.is_empty() && query != "0";
    crate::core::form::SigningForm::PhpSdk
        .differing_lines(path, query)
        .into_iter()
        .filter(|line| *line != LineLabel::Query || query_counts)
        .filter_map(|line| {
            CATALOGUE.iter().find_map(|d| match &d.php_sdk {
                Some((l, change)) if *l == line => {
                    Some((Mistake::new(d, Arg::None), change.clone()))
                }
                _ => None,
            })
        })
        .collect()
}

/// The mistakes of the PHP SDK form for this request ([`php_sdk_form`]).
pub fn php_sdk_mistakes(path: &str, query: &str) -> Vec<Mistake> {
    php_sdk_form(path, query)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

/// A key form: signed with these bytes.
fn key(d: &'static Def, arg: Arg, bytes: &str) -> Form {
    Form::of(d, arg, How::Key(bytes.as_bytes().to_vec()), true)
}

/// A body form of one mistake made while signing (tried in pairs).
fn body(d: &'static Def, r: Recipe) -> Form {
    Form::of(d, Arg::None, How::Body(r), true)
}

/// A body form of two mistakes at once: `d` and the one named `other`, in that order.
fn body_pair(d: &'static Def, other: &str, r: Recipe) -> Form {
    let mut f = body(d, r);
    f.mistakes.push(Mistake::named(other));
    f
}

/// A body form that undoes a change after signing (tried alone and with the PHP SDK form).
fn after(d: &'static Def, arg: Arg, a: After, r: Recipe) -> Form {
    let r = Recipe {
        after: Some(a),
        ..r
    };
    Form::of(d, arg, How::Body(r), false)
}

/// A recipe re-serialising the body in a style, keys sorted or not.
fn styled(s: Style, sorted: bool) -> Recipe {
    Recipe {
        style: Some((s, sorted)),
        ..Recipe::default()
    }
}

/// A recipe with a LF after the body it gives.
fn lf(r: Recipe) -> Recipe {
    Recipe {
        trailing_lf: true,
        ..r
    }
}

/// Whether a body looks like a JSON object or array (what can be re-serialised).
fn is_json(body: &[u8]) -> bool {
    matches!(
        body.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}
