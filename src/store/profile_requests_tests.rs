//! Named requests in a profile: the schema 3 file format, saving over a hand-edited file with
//! its comments, and the list operations.

use std::fs;

use super::*;
use crate::core::RequestSpec;

fn store() -> (tempfile::TempDir, ProfileStore) {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("config"), dir.path().join("data"));
    (dir, ProfileStore::open(&paths))
}

fn write_profile(s: &ProfileStore, name: &str, text: &str) -> std::path::PathBuf {
    fs::create_dir_all(s.dir()).unwrap();
    let path = s.paths().profile_file(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn schema_3_round_trip_with_several_requests_a_body_file_and_an_override() {
    let (d, s) = store();
    let mut p = Profile {
        indexing_url: "http://127.0.0.1:9".into(),
        analytics_url: "http://127.0.0.1:9".into(),
        ..Profile::new("multi")
    };
    p.set_api_key("pub-1");
    p.request_mut().body = "[{\"a\": \"multi\nline\"}]".into();
    let i = p
        .add_request(
            "search",
            RequestSpec {
                method: "GET".into(),
                path: "/v2/search".into(),
                query: "q=shoe s".into(),
                ..RequestSpec::default()
            },
        )
        .unwrap();
    assert_eq!(i, 1);
    p.add_request("upload", RequestSpec::default()).unwrap();
    p.select_request("upload").unwrap();
    let body_path = d.path().join("upload.json");
    p.selected_request_mut().body_file = Some(body_path.clone());
    p.request_mut().body = "[\"from a file\"]".into();
    // A hand-made override: one request signs with another public key.
    p.select_request("search").unwrap();
    p.request_mut().api_key = "pub-other".into();
    let out = s.save(&p).unwrap();
    let text = fs::read_to_string(&out.path).unwrap();
    assert!(text.contains("body_file = "), "{text}");
    assert!(
        !text.contains("from a file"),
        "the body stays in its file: {text}"
    );
    assert_eq!(fs::read(&body_path).unwrap(), b"[\"from a file\"]");
    assert_eq!(
        text.matches("api_key = ").count(),
        2,
        "account + the override: {text}"
    );

    let mut back = s.load("multi").unwrap();
    assert_eq!(back.origin.as_ref(), Some(&out.origin));
    assert_eq!(
        back.selected_request().name,
        "default",
        "loading selects the first"
    );
    back.origin = None;
    p.select_index(0);
    assert_eq!(back, p);
    assert_eq!(
        back.find_request("search").unwrap().spec.api_key,
        "pub-other"
    );
    assert_eq!(back.api_key(), "pub-1");
    assert_eq!(
        &back.find_request("upload").unwrap().spec.body[..],
        b"[\"from a file\"]"
    );
}

#[test]
fn a_relative_body_file_is_read_from_the_profile_directory_and_a_missing_one_is_one_sentence() {
    let (_d, s) = store();
    let text = "schema_version = 3\nindexing_url = \"http://x\"\nanalytics_url = \"http://x\"\n\
        api_key = \"k\"\n\n[rest_key]\nsource = \"env\"\nvar = \"K\"\n\n\
        [[requests]]\nname = \"upload\"\nbody_file = \"bodies/upload.json\"\n";
    write_profile(&s, "rel", text);
    let err = s.load("rel").unwrap_err().to_string();
    assert!(
        err.starts_with("profile \"rel\", request \"upload\": cannot read the body file ")
            && err.contains("bodies/upload.json")
            && !err.contains('\n'),
        "{err}"
    );
    fs::create_dir_all(s.dir().join("bodies")).unwrap();
    fs::write(s.dir().join("bodies/upload.json"), "[7]").unwrap();
    let p = s.load("rel").unwrap();
    assert_eq!(&p.request().body[..], b"[7]");
    assert_eq!(p.request().method, "PUT", "defaults fill the rest");
    // Both a body and a body file: told which request and what to do.
    let both = text.replace("body_file =", "body = \"[]\"\nbody_file =");
    write_profile(&s, "both", &both);
    let err = s.load("both").unwrap_err().to_string();
    assert!(
        err.contains("request \"upload\" has both `body` and `body_file`"),
        "{err}"
    );
}

#[test]
fn a_schema_3_file_without_requests_has_one_default_request_with_the_account() {
    let p = from_toml(
        "bare",
        std::path::Path::new("bare.toml"),
        "schema_version = 3\nindexing_url = \"u\"\nanalytics_url = \"u\"\nheader_prefix = \"KLEVU\"\n\
         api_key = \"k\"\n[rest_key]\nsource = \"demo\"\n",
    )
    .unwrap();
    assert_eq!(p.request_names(), [DEFAULT_REQUEST]);
    assert_eq!(
        (
            p.request().header_prefix.as_str(),
            p.request().api_key.as_str()
        ),
        ("KLEVU", "k")
    );
    // Two requests of one name are refused with the name.
    let err = from_toml(
        "dup",
        std::path::Path::new("dup.toml"),
        "schema_version = 3\nindexing_url = \"u\"\nanalytics_url = \"u\"\napi_key = \"k\"\n\
         [rest_key]\nsource = \"demo\"\n[[requests]]\nname = \"a\"\n[[requests]]\nname = \"a\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("already has a request named \"a\""), "{err}");
}

#[test]
fn saving_over_a_hand_edited_schema_3_file_keeps_comments_inside_requests_when_they_move() {
    let (_d, s) = store();
    let mut p = Profile::new("shop");
    p.indexing_url = "http://127.0.0.1:1".into();
    p.add_request("second", RequestSpec::default()).unwrap();
    s.save(&p).unwrap();
    let path = s.paths().profile_file("shop");
    let text = fs::read_to_string(&path).unwrap();
    let edited = text.replacen(
        "[[requests]]\nname = \"second\"",
        "# the second one\n[[requests]]\nname = \"second\" # keep me",
        1,
    );
    assert_ne!(edited, text);
    fs::write(&path, &edited).unwrap();
    let mut p = s.load("shop").unwrap();
    p.move_request("second", 0).unwrap();
    p.select_request("second").unwrap();
    p.request_mut().path = "/v2/other".into();
    p.rename_request("default", "first").unwrap();
    s.save(&p).unwrap();
    let saved = fs::read_to_string(&path).unwrap();
    assert!(
        saved.contains("# the second one\n[[requests]]\nname = \"second\" # keep me"),
        "{saved}"
    );
    let back = s.load("shop").unwrap();
    assert_eq!(back.request_names(), ["second", "first"]);
    assert_eq!(back.request().path, "/v2/other");
}

#[test]
fn the_list_operations_keep_names_unique_and_the_selection_on_its_request() {
    let mut p = Profile::new("shop");
    p.set_api_key("pk");
    p.add_request("b", RequestSpec::default()).unwrap();
    p.add_request("c", RequestSpec::default()).unwrap();
    assert_eq!(
        p.find_request("c").unwrap().spec.api_key,
        "pk",
        "added with the account's key"
    );
    p.select_request("b").unwrap();
    p.request_mut().query = "b=1".into();
    // Duplicate: right after the original, with its values.
    assert_eq!(p.duplicate_request("b", "b copy").unwrap(), 2);
    assert_eq!(p.request_names(), ["default", "b", "b copy", "c"]);
    assert_eq!(p.find_request("b copy").unwrap().spec.query, "b=1");
    assert_eq!(p.selected_request().name, "b");
    // Move: the selection follows its request.
    p.move_request("b", 3).unwrap();
    assert_eq!(p.request_names(), ["default", "b copy", "c", "b"]);
    assert_eq!(
        (p.selected_request().name.as_str(), p.selected_index()),
        ("b", 3)
    );
    p.move_request("c", 99).unwrap();
    assert_eq!(p.request_names(), ["default", "b copy", "b", "c"]);
    assert_eq!(p.selected_request().name, "b");
    // Rename.
    p.rename_request("b", "bee").unwrap();
    assert_eq!(p.selected_request().name, "bee");
    let err = p.rename_request("bee", "c").unwrap_err();
    assert_eq!(
        err.to_string(),
        "profile \"shop\" already has a request named \"c\"; choose another name"
    );
    assert!(matches!(
        p.add_request(" x", RequestSpec::default()),
        Err(StoreError::BadRequestName { .. })
    ));
    // Delete: the selection moves to the request that took its place.
    p.delete_request("bee").unwrap();
    assert_eq!(p.request_names(), ["default", "b copy", "c"]);
    assert_eq!(p.selected_request().name, "c");
    p.delete_request("c").unwrap();
    assert_eq!(p.selected_request().name, "b copy");
    p.delete_request("default").unwrap();
    let err = p.delete_request("b copy").unwrap_err().to_string();
    assert_eq!(
        err,
        "\"b copy\" is the only request of profile \"shop\" and cannot be deleted; a profile keeps at least one request"
    );
    // Unknown names list the known ones.
    p.add_request("z", RequestSpec::default()).unwrap();
    let err = p.select_request("nope").unwrap_err().to_string();
    assert_eq!(
        err,
        "profile \"shop\" has no request named \"nope\"; its requests are: b copy, z"
    );
    // The account's values are set in every request.
    p.set_header_prefix("KLEVU");
    assert!(p.requests().iter().all(|r| r.spec.header_prefix == "KLEVU"));
}

#[test]
fn replacing_the_requests_validates_them_and_selects_one() {
    let mut p = Profile::new("shop");
    let list = vec![
        SavedRequest::new("a", RequestSpec::default()),
        SavedRequest::new("b", RequestSpec::default()),
    ];
    p.replace_requests(list, 1).unwrap();
    assert_eq!(
        (p.request_names(), p.selected_request().name.as_str()),
        (vec!["a".to_string(), "b".to_string()], "b")
    );
    let dup = vec![
        SavedRequest::new("a", RequestSpec::default()),
        SavedRequest::new("a", RequestSpec::default()),
    ];
    let err = p.replace_requests(dup, 0).unwrap_err().to_string();
    assert_eq!(
        err,
        "profile \"shop\" already has a request named \"a\"; choose another name"
    );
    assert_eq!(
        p.request_names(),
        ["a", "b"],
        "a refused list changes nothing"
    );
}
