//! The indexing operations the local server emulates once a signature is accepted: those the
//! vendor's SDKs call (docs/server.md, "Indexing operations").
//!
//! | operation | answer |
//! |---|---|
//! | `PUT` / `PATCH /v2/batch` (records) | `200 {"message": "Job submitted successfully.", "jobId"}` |
//! | `PUT /v2/batch/delete` | the same, with its own job id |
//! | `GET /v2/attributes` | `200 [ {attribute}, ... ]`: the account's attributes, by name |
//! | `PUT /v2/attributes/{name}` | `200 {"message", "attributeName"}`; kept in memory for the account |
//! | `DELETE /v2/attributes/{name}` | `200 {"message", "attributeName"}`, or `404` when unknown |
//!
//! Any other path under `/v2/` with a valid signature answers `404 NOT_FOUND` saying that the
//! signature was valid and that the operation is not emulated. A trailing `/` on the path (as
//! the PHP SDK's form allows) names the same operation.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::error::ApiError;

/// What a verified request asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `PUT` or `PATCH /v2/batch`: add or update records.
    Batch,
    /// `PUT /v2/batch/delete`: delete records.
    BatchDelete,
    /// `GET /v2/attributes`.
    ListAttributes,
    /// `PUT /v2/attributes/{name}`.
    PutAttribute(String),
    /// `DELETE /v2/attributes/{name}`.
    DeleteAttribute(String),
    /// Anything else under `/v2/`.
    NotEmulated,
}

/// The operations listed in the not-emulated answer.
pub const EMULATED: &str = "PUT and PATCH /v2/batch, PUT /v2/batch/delete, GET /v2/attributes, PUT and DELETE /v2/attributes/{name}";

impl Operation {
    /// The operation of a method and path (trailing `/` ignored).
    pub fn of(method: &str, path: &str) -> Operation {
        let path = path.trim_end_matches('/');
        match (method, path) {
            ("PUT" | "PATCH", "/v2/batch") => Operation::Batch,
            ("PUT", "/v2/batch/delete") => Operation::BatchDelete,
            ("GET", "/v2/attributes") => Operation::ListAttributes,
            (_, p) => match p.strip_prefix("/v2/attributes/") {
                Some(name) if !name.is_empty() && !name.contains('/') => match method {
                    "PUT" => Operation::PutAttribute(name.to_string()),
                    "DELETE" => Operation::DeleteAttribute(name.to_string()),
                    _ => Operation::NotEmulated,
                },
                _ => Operation::NotEmulated,
            },
        }
    }

    /// Whether the body must be JSON (checked once the signature is accepted).
    pub fn takes_json(&self) -> bool {
        matches!(
            self,
            Operation::Batch | Operation::BatchDelete | Operation::PutAttribute(_)
        )
    }

    /// Whether the answer carries a job id.
    pub fn is_job(&self) -> bool {
        matches!(self, Operation::Batch | Operation::BatchDelete)
    }
}

/// Indexing attributes, kept in memory per account (public API key), by name.
#[derive(Debug, Default)]
pub struct Attributes(Mutex<HashMap<String, BTreeMap<String, Value>>>);

impl Attributes {
    fn with<R>(&self, f: impl FnOnce(&mut HashMap<String, BTreeMap<String, Value>>) -> R) -> R {
        f(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Every attribute of an account, by name.
    pub fn list(&self, api_key: &str) -> Vec<Value> {
        self.with(|m| {
            m.get(api_key)
                .map(|a| a.values().cloned().collect())
                .unwrap_or_default()
        })
    }

    /// Add or replace one attribute.
    pub fn put(&self, api_key: &str, name: &str, attribute: Value) {
        self.with(|m| {
            m.entry(api_key.to_string())
                .or_default()
                .insert(name.to_string(), attribute)
        });
    }

    /// Remove one attribute; false when the account had none of that name.
    pub fn delete(&self, api_key: &str, name: &str) -> bool {
        self.with(|m| m.get_mut(api_key).is_some_and(|a| a.remove(name).is_some()))
    }

    /// Forget every attribute (the inspection API's reset).
    pub fn clear(&self) {
        self.with(|m| m.clear());
    }
}

/// The answer to an accepted, non-job operation: `(status, JSON body)` or an error. `body` is
/// already known to be JSON when the operation takes JSON.
pub fn answer(
    op: &Operation,
    attributes: &Attributes,
    api_key: &str,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<Value, ApiError> {
    match op {
        Operation::ListAttributes => Ok(Value::Array(attributes.list(api_key))),
        Operation::PutAttribute(name) => {
            let mut attribute = match serde_json::from_slice::<Value>(body) {
                Ok(Value::Object(o)) => o,
                _ => {
                    return Err(ApiError::new(
                        400,
                        "VALIDATION_ERROR",
                        format!(
                            "The body of PUT /v2/attributes/{name} must be a JSON object describing the attribute (attributeName, datatype, label, ...)."
                        ),
                    ))
                }
            };
            if let Some(other) = attribute.get("attributeName").and_then(Value::as_str) {
                if other != name {
                    return Err(ApiError::new(
                        400,
                        "VALIDATION_ERROR",
                        format!(
                            "The body names the attribute {other:?}, but the path names {name:?}; they must be the same."
                        ),
                    ));
                }
            }
            attribute.insert("attributeName".into(), json!(name));
            attributes.put(api_key, name, Value::Object(attribute));
            Ok(json!({
                "message": format!("Attribute {name} saved."),
                "attributeName": name,
            }))
        }
        Operation::DeleteAttribute(name) => {
            if attributes.delete(api_key, name) {
                Ok(json!({
                    "message": format!("Attribute {name} deleted."),
                    "attributeName": name,
                }))
            } else {
                Err(ApiError::new(
                    404,
                    "NOT_FOUND",
                    format!("There is no attribute {name} for the API key {api_key}."),
                ))
            }
        }
        Operation::NotEmulated => Err(not_emulated(method, path)),
        Operation::Batch | Operation::BatchDelete => {
            unreachable!("job operations are answered by the indexing handler")
        }
    }
}

/// The 404 for a validly signed request to an operation the server does not emulate.
pub fn not_emulated(method: &str, path: &str) -> ApiError {
    ApiError::new(
        404,
        "NOT_FOUND",
        format!(
            "The signature is valid, but {method} {path} is not an operation the local server emulates (it emulates {EMULATED})."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_are_recognised_with_or_without_a_trailing_slash() {
        assert_eq!(Operation::of("PUT", "/v2/batch"), Operation::Batch);
        assert_eq!(Operation::of("PATCH", "/v2/batch/"), Operation::Batch);
        assert_eq!(
            Operation::of("PUT", "/v2/batch/delete"),
            Operation::BatchDelete
        );
        assert_eq!(
            Operation::of("GET", "/v2/attributes/"),
            Operation::ListAttributes
        );
        assert_eq!(
            Operation::of("PUT", "/v2/attributes/colour"),
            Operation::PutAttribute("colour".into())
        );
        assert_eq!(
            Operation::of("DELETE", "/v2/attributes/colour/"),
            Operation::DeleteAttribute("colour".into())
        );
        for (m, p) in [
            ("POST", "/v2/batch"),
            ("GET", "/v2/batch"),
            ("DELETE", "/v2/batch/delete"),
            ("GET", "/v2/attributes/colour"),
            ("PUT", "/v2/attributes/a/b"),
            ("PUT", "/v2/other"),
        ] {
            assert_eq!(Operation::of(m, p), Operation::NotEmulated, "{m} {p}");
        }
    }

    #[test]
    fn attributes_are_kept_per_account() {
        let a = Attributes::default();
        let put = |key: &str, name: &str, body: &str| {
            answer(
                &Operation::PutAttribute(name.into()),
                &a,
                key,
                "PUT",
                "",
                body.as_bytes(),
            )
        };
        put("k1", "colour", r#"{"datatype": "STRING"}"#).unwrap();
        put("k1", "brand", r#"{"attributeName": "brand", "label": {}}"#).unwrap();
        put("k2", "size", "{}").unwrap();
        let list = answer(&Operation::ListAttributes, &a, "k1", "GET", "", b"").unwrap();
        assert_eq!(
            list,
            json!([{"attributeName": "brand", "label": {}},
                   {"attributeName": "colour", "datatype": "STRING"}])
        );
        let e = put("k1", "colour", r#"{"attributeName": "size"}"#).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("\"size\""), "{}", e.message);
        assert_eq!(put("k1", "colour", "[]").unwrap_err().status, 400);

        let del = |key: &str| {
            answer(
                &Operation::DeleteAttribute("colour".into()),
                &a,
                key,
                "DELETE",
                "",
                b"",
            )
        };
        assert_eq!(del("k2").unwrap_err().status, 404);
        assert!(del("k1").is_ok());
        assert_eq!(del("k1").unwrap_err().status, 404);
        assert_eq!(a.list("k1").len(), 1);
        assert_eq!(a.list("k2").len(), 1);
    }

    #[test]
    fn other_operations_say_the_signature_was_valid() {
        let e = answer(
            &Operation::NotEmulated,
            &Attributes::default(),
            "k",
            "GET",
            "/v2/search",
            b"",
        )
        .unwrap_err();
        assert_eq!(e.status, 404);
        assert!(
            e.message.starts_with("The signature is valid, but GET /v2/search is not an operation the local server emulates"),
            "{}",
            e.message
        );
    }
}
