//! Small JSON helpers shared by the collector's reports, the inspection API and the workbench: a
//! problem's path as a JSON Pointer (`docs/events.md`, "Problem codes"), the partial match of
//! `/_inspect/events?match=` (`docs/server.md`), and where in a document a pointer leads.

use serde_json::Value;

/// A problem path as the reports write it (`[0].items[2].currency`, `event_data.list_id`,
/// `klevu_term`; empty for the whole body) as an RFC 6901 JSON Pointer (`/0/items/2/currency`;
/// `""` for the whole body). A member name's `~` is written `~0` and its `/` `~1`; a `[` that
/// does not open an index (`[` digits `]`) is part of the name.
pub fn json_pointer(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    let mut name = String::new();
    let mut in_name = false;
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        let index = (c == '[').then(|| leading_index(rest)).flatten();
        if let Some((digits, after)) = index {
            flush_name(&mut out, &mut name, &mut in_name);
            out.push('/');
            out.push_str(digits);
            rest = after;
            continue;
        }
        rest = &rest[c.len_utf8()..];
        if c == '.' {
            flush_name(&mut out, &mut name, &mut in_name);
        } else {
            name.push(c);
            in_name = true;
        }
    }
    flush_name(&mut out, &mut name, &mut in_name);
    out
}

/// Where the value a JSON Pointer names begins in `text` (a JSON document), as a byte offset:
/// what an editor moves its cursor to for a problem's `fieldPath`. A member or element that is
/// not there gives the deepest value on the way that is (a record without an `id` gives the
/// record). `None` when `text` is not JSON.
pub fn pointer_offset(text: &str, pointer: &str) -> Option<usize> {
    use serde_json::value::RawValue;
    use std::collections::BTreeMap;
    let mut at: &RawValue = serde_json::from_str(text).ok()?;
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        let next = match at.get().as_bytes().first() {
            Some(b'[') => token.parse::<usize>().ok().and_then(|i| {
                let items: Vec<&RawValue> = serde_json::from_str(at.get()).ok()?;
                items.get(i).copied()
            }),
            Some(b'{') => serde_json::from_str::<BTreeMap<String, &RawValue>>(at.get())
                .ok()
                .and_then(|members| members.get(&token).copied()),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    // Every value is a slice of `text`: its place is its distance from the start.
    Some(at.get().as_ptr() as usize - text.as_ptr() as usize)
}

/// `base` + `/` + `token`, the token escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
pub fn pointer(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    push_token(&mut out, token);
    out
}

/// `/` + `token` escaped (as [`pointer`]) onto the end of `out`, in place.
fn push_token(out: &mut String, token: &str) {
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// `[12]...` → `("12", "...")`.
fn leading_index(s: &str) -> Option<(&str, &str)> {
    let inner = s.strip_prefix('[')?;
    let end = inner.find(']')?;
    let digits = &inner[..end];
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| (digits, &inner[end + 1..]))
}

fn flush_name(out: &mut String, name: &mut String, in_name: &mut bool) {
    if *in_name {
        push_token(out, name);
        name.clear();
        *in_name = false;
    }
}

/// Whether `actual` has everything `given` has: an object matches when each of its members is
/// present in `actual` and matches there (recursively, so `{"event_data": {"list_id": "x"}}`
/// ignores the other members of `event_data`); anything else (arrays included) must be equal.
pub fn matches_partially(given: &Value, actual: &Value) -> bool {
    match (given, actual) {
        (Value::Object(want), Value::Object(have)) => want
            .iter()
            .all(|(k, w)| have.get(k).is_some_and(|h| matches_partially(w, h))),
        _ => given == actual,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The text at the place `pointer` leads to in `text`, `n` bytes of it.
    fn at<'t>(text: &'t str, pointer: &str, n: usize) -> Option<&'t str> {
        pointer_offset(text, pointer).map(|o| &text[o..(o + n).min(text.len())])
    }

    #[test]
    fn a_pointer_leads_to_its_value_in_a_pretty_body() {
        let text = "[\n  {\"id\": 42, \"type\": \"\",\n   \"attributes\": {\"a/b\": 1, \"c~d\": [7, [8, 9]]}}\n]";
        assert_eq!(at(text, "/0/id", 2), Some("42"));
        assert_eq!(at(text, "/0/type", 2), Some("\"\""));
        assert_eq!(at(text, "/0/attributes/a~1b", 1), Some("1"));
        assert_eq!(at(text, "/0/attributes/c~0d", 3), Some("[7,"));
        assert_eq!(at(text, "/0/attributes/c~0d/1/1", 1), Some("9"));
        assert_eq!(at(text, "", 2), Some("[\n"));
    }

    #[test]
    fn a_pointer_leads_to_its_value_in_a_compact_body() {
        let text = r#"  [{"id":"a","type":"KLEVU_PRODUCT"},{"id":7,"a\"b":{"~1":true},"x":null}]"#;
        assert_eq!(at(text, "/1/id", 1), Some("7"));
        assert_eq!(at(text, "/0/type", 6), Some("\"KLEVU"));
        // A key written with an escape in the JSON; a key that is "~1" itself is "~01".
        assert_eq!(at(text, "/1/a\"b/~01", 4), Some("true"));
        assert_eq!(at(text, "/1/x", 4), Some("null"));
        // The whole body starts at its first bracket, not at the spaces before it.
        assert_eq!(at(text, "", 2), Some("[{"));
    }

    #[test]
    fn a_pointer_to_nothing_leads_to_the_deepest_value_on_its_way() {
        let text = "{\"ids\": [\"a\", 5],\n \"more\": {}}";
        // A member that is not there: the object it would be in.
        assert_eq!(at(text, "/more/x", 2), Some("{}"));
        // An element past the end, or an index into an object: where the walk stopped.
        assert_eq!(at(text, "/ids/9", 1), Some("["));
        assert_eq!(at(text, "/more/0/y", 2), Some("{}"));
        // Not an index into an array, or a step into a scalar.
        assert_eq!(at(text, "/ids/first", 1), Some("["));
        assert_eq!(at(text, "/ids/1/x", 1), Some("5"));
        assert_eq!(at(text, "/ids/1", 1), Some("5"));
        // Not JSON: nowhere.
        assert_eq!(pointer_offset("[1,", "/0"), None);
        assert_eq!(pointer_offset("", ""), None);
    }

    #[test]
    fn paths_become_json_pointers() {
        let cases = [
            ("", ""),
            ("[0]", "/0"),
            ("[0].items[2].currency", "/0/items/2/currency"),
            ("[3].event_data.list_id", "/3/event_data/list_id"),
            ("[12].items", "/12/items"),
            ("klevu_term", "/klevu_term"),
            ("[0].a~b", "/0/a~0b"),
            ("[0].a/b", "/0/a~1b"),
            ("[0].~/", "/0/~0~1"),
            ("[0].odd[x]", "/0/odd[x]"),
            ("[0].items[1][2]", "/0/items/1/2"),
            ("[0].café", "/0/café"),
        ];
        for (path, pointer) in cases {
            assert_eq!(json_pointer(path), pointer, "path {path:?}");
        }
    }

    #[test]
    fn every_problem_carries_its_pointer_and_description() {
        let report = crate::core::events::validate_bytes(br#"[{"event": 5}]"#);
        assert!(!report.problems.is_empty());
        for p in &report.problems {
            let v = serde_json::to_value(p).unwrap();
            assert_eq!(v["fieldPath"], json!(json_pointer(&p.path)), "{v}");
            assert_eq!(v["description"], v["message"], "{v}");
            assert_eq!(v["path"], json!(p.path), "{v}");
        }
        let syntax = crate::core::events::validate_bytes(b"[{");
        let v = serde_json::to_value(&syntax.problems[0]).unwrap();
        assert_eq!(v["fieldPath"], json!(""));
        assert_eq!(v["code"], json!("JSON_SYNTAX"));
        assert!(v["line"].is_number());
    }

    #[test]
    fn partial_match_is_recursive_for_objects_and_exact_for_the_rest() {
        let ev = json!({"event": "view_recs_list", "event_apikey": "k",
                        "event_data": {"list_id": "L", "items": [{"item_id": "a"}, {"item_id": "b"}]}});
        assert!(matches_partially(&json!({}), &ev));
        assert!(matches_partially(&json!({"event": "view_recs_list"}), &ev));
        assert!(matches_partially(
            &json!({"event_data": {"list_id": "L"}}),
            &ev
        ));
        assert!(!matches_partially(
            &json!({"event_data": {"list_id": "M"}}),
            &ev
        ));
        assert!(!matches_partially(&json!({"missing": null}), &ev));
        assert!(!matches_partially(
            &json!({"event_data": {"items": [{"item_id": "a"}]}}),
            &ev
        ));
        assert!(matches_partially(
            &json!({"event_data": {"items": [{"item_id": "a"}, {"item_id": "b"}]}}),
            &ev
        ));
        assert!(!matches_partially(&json!({"event": 1}), &ev));
        assert!(!matches_partially(
            &json!({"event": {"x": 1}}),
            &json!({"event": "s"})
        ));
        assert!(!matches_partially(&json!([1]), &ev));
    }
}
