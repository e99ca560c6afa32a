//! Presets for real vendors: the public parts of an account's settings (header prefix and base
//! URLs), never its keys, which stay the user's (README, "The vendor's own clients";
//! `signscope profile new --vendor`).

/// The public settings of a vendor's service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VendorPreset {
    /// The name used on the command line (`--vendor klevu`).
    pub name: &'static str,
    /// The header prefix of the signed headers (`X-KLEVU-TIMESTAMP`, ...).
    pub header_prefix: &'static str,
    /// Base URL of the indexing API (requests go to `{indexing_url}/v2/...`).
    pub indexing_url: &'static str,
    /// Base URL of the analytics collector (events go to `{analytics_url}/analytics/collect`).
    pub analytics_url: &'static str,
}

/// Klevu: the URLs its SDKs use by default.
pub const KLEVU: VendorPreset = VendorPreset {
    name: "klevu",
    header_prefix: "KLEVU",
    indexing_url: "https://indexing.ksearchnet.com",
    analytics_url: "https://stats.ksearchnet.com",
};

/// Every preset.
pub static PRESETS: [VendorPreset; 1] = [KLEVU];

/// A vendor name no preset has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown vendor {name:?}: known presets are {known}", known = preset_names())]
pub struct UnknownVendor {
    pub name: String,
}

fn preset_names() -> String {
    PRESETS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl VendorPreset {
    /// The preset of this name (any case).
    pub fn named(s: &str) -> Result<&'static VendorPreset, UnknownVendor> {
        PRESETS
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVendor {
                name: s.to_string(),
            })
    }
}

/// One indexing operation of the vendor's SDKs: method, path, what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdkOperation {
    pub method: &'static str,
    pub path: &'static str,
    pub what: &'static str,
}

/// The indexing operations the vendor's SDKs call (the local server emulates them all,
/// docs/server.md); `{name}` paths use `colour` as the attribute name to edit.
pub const SDK_OPERATIONS: [SdkOperation; 6] = [
    SdkOperation {
        method: "PUT",
        path: "/v2/batch",
        what: "add or replace records",
    },
    SdkOperation {
        method: "PATCH",
        path: "/v2/batch",
        what: "update records in part",
    },
    SdkOperation {
        method: "PUT",
        path: "/v2/batch/delete",
        what: "delete records",
    },
    SdkOperation {
        method: "GET",
        path: "/v2/attributes",
        what: "list the attributes",
    },
    SdkOperation {
        method: "PUT",
        path: "/v2/attributes/colour",
        what: "add or replace an attribute",
    },
    SdkOperation {
        method: "DELETE",
        path: "/v2/attributes/colour",
        what: "delete an attribute",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn klevu_is_known_by_name_in_any_case() {
        assert_eq!(*VendorPreset::named("Klevu").unwrap(), KLEVU);
        assert_eq!(
            VendorPreset::named("acme").unwrap_err().to_string(),
            "unknown vendor \"acme\": known presets are klevu"
        );
    }
}
