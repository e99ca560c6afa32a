//! Timestamps: the project's own format (`docs/signing.md` rule S11) and the lenient RFC 3339 parsing
//! the verifier uses (rule 11). Time is always an input here; nothing reads the clock.

use chrono::{DateTime, SecondsFormat, Utc};

/// Format a time the way the project produces timestamps: `YYYY-MM-DDThh:mm:ss.mmmZ`.
pub fn format_timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A timestamp read from a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedTimestamp {
    pub time: DateTime<Utc>,
    /// True when the text is exactly in the rule-9 form (`...T..:..:...mmmZ`).
    pub canonical_form: bool,
    /// True when the text is in the form the vendor's PHP SDK sends (`date('c')`: whole seconds
    /// and an offset, `2026-11-23T11:24:54+00:00`; `docs/verification.md` rule V3).
    pub php_sdk_form: bool,
}

impl ParsedTimestamp {
    /// A form a real client of the vendor's sends: the project's own, or the PHP SDK's. Other
    /// RFC 3339 forms are accepted with a warning (`docs/verification.md` rule V3).
    pub fn known_form(&self) -> bool {
        self.canonical_form || self.php_sdk_form
    }
}

/// Parse any RFC 3339 timestamp. Returns `None` when the text is not RFC 3339.
pub fn parse_timestamp(text: &str) -> Option<ParsedTimestamp> {
    let time = DateTime::parse_from_rfc3339(text).ok()?.with_timezone(&Utc);
    Some(ParsedTimestamp {
        time,
        canonical_form: has_shape(text, b"dddd-dd-ddTdd:dd:dd.dddZ"),
        // PHP's `date('c')`, which the vendor's PHP SDK signs with (`-hh:mm` too).
        php_sdk_form: has_shape(text, b"dddd-dd-ddTdd:dd:dd+dd:dd"),
    })
}

/// Whether `text` has exactly this shape: `d` a digit, `+` a sign, any other byte itself.
fn has_shape(text: &str, shape: &[u8]) -> bool {
    let b = text.as_bytes();
    b.len() == shape.len()
        && b.iter().zip(shape).all(|(c, s)| match s {
            b'd' => c.is_ascii_digit(),
            b'+' => *c == b'+' || *c == b'-',
            other => c == other,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn formats_with_millis_and_z() {
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
            + chrono::Duration::milliseconds(7);
        assert_eq!(format_timestamp(t), "2026-11-22T10:00:00.007Z");
    }

    #[test]
    fn parses_other_rfc3339_forms_but_flags_them() {
        let p = parse_timestamp("2024-01-01T12:00:00+00:00").unwrap();
        assert!(!p.canonical_form);
        assert_eq!(p.time, Utc.with_ymd_and_hms(2024, 1, 1, 12, 0, 0).unwrap());
        assert!(
            parse_timestamp("2024-01-01T12:00:00.000Z")
                .unwrap()
                .canonical_form
        );
        assert!(parse_timestamp("yesterday").is_none());
        // The PHP SDK's date('c'), any offset: a known form. Fractions with an offset, or
        // whole seconds with Z, are not.
        for php in [
            "2026-11-23T11:24:54+00:00",
            "2026-11-23T12:24:54+01:00",
            "2026-11-23T06:24:54-05:00",
        ] {
            let p = parse_timestamp(php).unwrap();
            assert!(p.php_sdk_form && p.known_form(), "{php}");
        }
        for other in [
            "2026-11-23T11:24:54Z",
            "2026-11-23T11:24:54.5+00:00",
            "2026-11-23 11:24:54+00:00",
        ] {
            assert!(
                parse_timestamp(other).is_none_or(|p| !p.known_form()),
                "{other}"
            );
        }
        assert!(parse_timestamp("2024-13-01T12:00:00.000Z").is_none());
    }
}
