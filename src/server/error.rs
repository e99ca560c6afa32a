//! The vendor's error shape (`docs/server.md` rule R2):
//! `{"status": 401, "code": "...", "message": "...", "debug": [{"message": "..."}]}`, plus
//! `fieldPath` (a JSON Pointer into the body, `""` for the whole request) and `description`
//! (the sentence again), as GA4's `validationMessages` have them (`docs/verification.md`,
//! "Error codes").

use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Serialize, Serializer};

/// One entry of `debug`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DebugEntry {
    pub message: String,
}

/// An error answer in the vendor's shape. `message` is one clear sentence; `debug` carries
/// details (never a key).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct ApiError {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub debug: Vec<DebugEntry>,
    /// Where in the body the error is, as a JSON Pointer; `""` for the whole request.
    #[serde(default, rename = "fieldPath")]
    pub field_path: String,
}

/// The answer as written: the vendor's members, then `fieldPath` and `description`.
#[derive(Serialize)]
struct Wire<'a> {
    status: u16,
    code: &'a str,
    message: &'a str,
    debug: &'a [DebugEntry],
    #[serde(rename = "fieldPath")]
    field_path: &'a str,
    description: &'a str,
}

impl Serialize for ApiError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            status: self.status,
            code: &self.code,
            message: &self.message,
            debug: &self.debug,
            field_path: &self.field_path,
            description: &self.message,
        }
        .serialize(s)
    }
}

impl ApiError {
    pub fn new(status: u16, code: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code: code.to_string(),
            message: message.into(),
            debug: Vec::new(),
            field_path: String::new(),
        }
    }

    /// Add one `debug` entry.
    pub fn with_debug(mut self, message: impl Into<String>) -> Self {
        self.debug.push(DebugEntry {
            message: message.into(),
        });
        self
    }

    pub fn not_found(method: &str, path: &str) -> Self {
        ApiError::new(
            404,
            "NOT_FOUND",
            format!("There is no operation {method} {path} on this server."),
        )
    }

    pub fn payload_too_large(limit: usize) -> Self {
        ApiError::new(
            413,
            "PAYLOAD_TOO_LARGE",
            format!("The request body is larger than the limit of {limit} bytes."),
        )
    }

    pub fn body_timeout() -> Self {
        ApiError::new(
            408,
            "REQUEST_TIMEOUT",
            "The request body did not arrive in time.",
        )
    }

    pub fn internal() -> Self {
        ApiError::new(
            500,
            "INTERNAL_ERROR",
            "The server failed while handling this request; this is a bug in signscope.",
        )
    }

    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// A query string the handler's parameters do not take: 400 `INVALID_QUERY`.
impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::new(
            400,
            "INVALID_QUERY",
            format!(
                "The query string is not understood: {}.",
                rejection.body_text()
            ),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status_code(), Json(self)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_in_vendor_shape() {
        let e = ApiError::new(401, "SIGNATURE_MISMATCH", "no").with_debug("d");
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"status": 401, "code": "SIGNATURE_MISMATCH", "message": "no",
                               "debug": [{"message": "d"}], "fieldPath": "", "description": "no"})
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "status",
                "code",
                "message",
                "debug",
                "fieldPath",
                "description"
            ]
        );
        // A client reading the answer back gets the same error.
        let back: ApiError = serde_json::from_value(v).unwrap();
        assert_eq!(back, e);
    }
}
