//! Tests of the profile manager: list, create, rename, duplicate, delete, edit, drawing.

use super::*;
use crate::core::Secret;
use crate::store::{KeySource, Profile};
use crate::tui::app::App;
use crate::tui::layout::View;
use crate::tui::test_util::{buffer_lines, component_buffer};
use crossterm::event::{KeyCode, KeyModifiers};
use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;
use std::path::PathBuf;

/// What `effects` say in the status line (every `Status`, joined).
fn said(effects: &[ProfilesEffect]) -> String {
    effects
        .iter()
        .filter_map(|e| match e {
            ProfilesEffect::Status(s) => Some(s.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `effects` without what they say: what the runtime is asked to do.
fn work(effects: Vec<ProfilesEffect>) -> Vec<ProfilesEffect> {
    effects
        .into_iter()
        .filter(|e| !matches!(e, ProfilesEffect::Status(_)))
        .collect()
}

/// The view's update with the demo profile in use (as the workbench starts; the App owns the
/// name of the profile in use).
fn update(s: &mut ProfilesState, msg: ProfilesMsg) -> Vec<ProfilesEffect> {
    super::update(s, "demo", msg)
}

fn key(code: KeyCode) -> ProfilesMsg {
    ProfilesMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}
fn type_text(s: &mut ProfilesState, text: &str) {
    for c in text.chars() {
        update(s, key(KeyCode::Char(c)));
    }
}

fn shop() -> Profile {
    let mut p = Profile {
        indexing_url: "http://127.0.0.1:7001".into(),
        analytics_url: "http://127.0.0.1:7002".into(),
        rest_key: KeySource::Stored(Secret::new("s3cr3t-rest-key")),
        ..Profile::new("shop")
    };
    p.set_header_prefix("KLEVU");
    p.set_api_key("shop-public");
    p
}

fn loaded() -> ProfilesState {
    let mut s = ProfilesState::default();
    update(
        &mut s,
        ProfilesMsg::Loaded {
            profiles: vec![Profile::demo(), shop()],
            errors: vec![
                "/cfg/profiles/bad.toml line 3 column 1 is not valid: expected `=`".into(),
            ],
            dir: PathBuf::from("/cfg/profiles"),
        },
    );
    s
}

#[test]
fn delete_needs_confirmation_and_other_keys_keep_the_profile() {
    let mut s = loaded();
    s.list.selected = 1;
    assert!(work(update(&mut s, key(KeyCode::Char('d')))).is_empty());
    assert!(matches!(s.mode, Mode::ConfirmDelete(ref n) if n == "shop"));
    let fx = update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(said(&fx), "Kept profile shop.");
    assert!(work(fx).is_empty());
    assert!(matches!(s.mode, Mode::Browse));
    update(&mut s, key(KeyCode::Char('d')));
    let effects = update(&mut s, key(KeyCode::Char('y')));
    assert_eq!(said(&effects), "Deleting profile shop…");
    assert_eq!(
        work(effects),
        vec![ProfilesEffect::DeleteProfile("shop".into())]
    );
}

#[test]
fn the_demo_profile_cannot_be_deleted_renamed_or_edited() {
    let mut s = loaded();
    s.list.selected = 0;
    for c in ['d', 'r', 'e'] {
        let fx = update(&mut s, key(KeyCode::Char(c)));
        assert!(matches!(s.mode, Mode::Browse), "{c}");
        assert!(said(&fx).contains("built in"), "{c}: {fx:?}");
        assert!(work(fx).is_empty(), "{c}");
    }
}

#[test]
fn new_from_scratch_from_current_duplicate_and_rename() {
    let mut s = loaded();
    update(&mut s, key(KeyCode::Char('n')));
    assert!(s.is_text_input_focused());
    type_text(&mut s, "staging");
    let effects = work(update(&mut s, key(KeyCode::Enter)));
    match &effects[..] {
        [ProfilesEffect::SaveProfile(p, None)] => {
            assert_eq!(p.name, "staging");
            assert_eq!(
                p.request().header_prefix,
                Profile::new("x").request().header_prefix
            );
        }
        other => panic!("{other:?}"),
    }
    // From the current (demo) profile: keeps its settings.
    update(&mut s, key(KeyCode::Char('c')));
    type_text(&mut s, "learn");
    match &work(update(&mut s, key(KeyCode::Enter)))[..] {
        [ProfilesEffect::SaveProfile(p, Some(source))] => {
            assert_eq!(source, "demo", "keeps the body of the profile it copies");
            assert_eq!(p.name, "learn");
            assert_eq!(p.request().api_key, Profile::demo().request().api_key);
        }
        other => panic!("{other:?}"),
    }
    // Duplicate the selected one: name prefilled.
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('D')));
    match &work(update(&mut s, key(KeyCode::Enter)))[..] {
        [ProfilesEffect::SaveProfile(p, Some(source))] => {
            assert_eq!(source, "shop");
            assert_eq!(p.name, "shop-copy");
            assert_eq!(p.request().api_key, "shop-public");
            assert_eq!(p.rest_key, shop().rest_key);
        }
        other => panic!("{other:?}"),
    }
    // Rename.
    update(&mut s, key(KeyCode::Char('r')));
    update(
        &mut s,
        ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    type_text(&mut s, "shop2");
    match &work(update(&mut s, key(KeyCode::Enter)))[..] {
        [ProfilesEffect::RenameProfile { from, profile }] => {
            assert_eq!(from, "shop");
            assert_eq!(profile.name, "shop2");
            assert_eq!(profile.indexing_url, "http://127.0.0.1:7001");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_or_taken_names_are_refused_and_the_prompt_stays() {
    let mut s = loaded();
    update(&mut s, key(KeyCode::Char('n')));
    type_text(&mut s, "shop");
    let fx = update(&mut s, key(KeyCode::Enter));
    assert!(said(&fx).contains("already exists"), "{fx:?}");
    assert!(work(fx).is_empty());
    assert!(matches!(s.mode, Mode::Name { .. }));
    update(
        &mut s,
        ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    type_text(&mut s, "a b");
    let fx = update(&mut s, key(KeyCode::Enter));
    assert!(said(&fx).contains("not a usable profile name"), "{fx:?}");
    assert!(work(fx).is_empty());
    update(&mut s, key(KeyCode::Esc));
    assert!(matches!(s.mode, Mode::Browse));
}

#[test]
fn editing_changes_urls_prefix_and_key_source() {
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('e')));
    // Indexing URL is focused: replace it.
    update(
        &mut s,
        ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    type_text(&mut s, "http://127.0.0.1:9000");
    update(&mut s, key(KeyCode::Tab));
    update(&mut s, key(KeyCode::Tab));
    update(&mut s, key(KeyCode::Backspace));
    type_text(&mut s, "X");
    update(&mut s, key(KeyCode::Tab));
    update(&mut s, key(KeyCode::Tab)); // key kind
    assert!(!s.is_text_input_focused());
    update(&mut s, key(KeyCode::Right)); // Stored -> Demo
    update(&mut s, key(KeyCode::Right)); // Demo -> Env (wraps)
    update(&mut s, key(KeyCode::Tab));
    type_text(&mut s, "SHOP_REST_KEY");
    let effects = work(update(&mut s, key(KeyCode::Enter)));
    match &effects[..] {
        [ProfilesEffect::SaveProfile(p, Some(source))] => {
            assert_eq!(source, "shop");
            assert_eq!(p.name, "shop");
            assert_eq!(p.indexing_url, "http://127.0.0.1:9000");
            assert_eq!(p.analytics_url, "http://127.0.0.1:7002");
            assert_eq!(p.request().header_prefix, "KLEVX");
            assert_eq!(p.rest_key, KeySource::Env("SHOP_REST_KEY".into()));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_copy_of_the_demo_keeps_the_demo_key_source_when_edited() {
    let mut s = loaded();
    let mut copy = Profile::demo();
    copy.name = "learn".into();
    s.profiles.push(copy);
    s.list.selected = 2;
    update(&mut s, key(KeyCode::Char('e')));
    // (A URL is checked on save: the change goes to the API key.)
    for _ in 0..3 {
        update(&mut s, key(KeyCode::Tab));
    }
    update(&mut s, key(KeyCode::Char('/')));
    match &work(update(&mut s, key(KeyCode::Enter)))[..] {
        [ProfilesEffect::SaveProfile(p, _)] => {
            assert_eq!(p.rest_key, KeySource::Demo);
            assert!(p.api_key().ends_with('/'));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_empty_key_source_is_refused_with_a_sentence() {
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('e')));
    for _ in 0..4 {
        update(&mut s, key(KeyCode::Tab));
    }
    update(&mut s, key(KeyCode::Left)); // Stored -> the OS key store, value cleared
    let fx = update(&mut s, key(KeyCode::Enter));
    assert!(said(&fx).contains("keyring:SERVICE/ACCOUNT"), "{fx:?}");
    assert!(work(fx).is_empty());
    update(&mut s, key(KeyCode::Left)); // -> Command
    let fx = update(&mut s, key(KeyCode::Enter));
    assert!(said(&fx).contains("command"), "{fx:?}");
    assert!(work(fx).is_empty());
    assert!(matches!(s.mode, Mode::Edit(_)), "nothing lost");
}

/// The view as the workbench draws it on a `w`x`h` screen (the one fixture, `TestApp`).
fn shown(state: &ProfilesState, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let slot: fn(&mut App) -> &mut ProfilesState = |a| &mut a.profiles;
    component_buffer(w, h, View::Profiles, slot, &mut state.clone())
}

/// [`shown`] as text, one line per row.
fn render(state: &ProfilesState, w: u16, h: u16) -> String {
    buffer_lines(&shown(state, w, h)).join("\n")
}

#[test]
fn a_paste_goes_to_the_focused_field_of_the_edit_form() {
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('e')));
    let Mode::Edit(form) = &s.mode else {
        panic!("not editing")
    };
    let focus = form.focus;
    update(&mut s, ProfilesMsg::Paste("-pasted\r\n".into()));
    let Mode::Edit(form) = &mut s.mode else {
        panic!("not editing")
    };
    let text = form.input_mut(focus).expect("a text field first").text();
    assert!(text.ends_with("-pasted"), "{text:?}");
}

/// A refused name used to be invisible: the prompt line replaced the status that said why,
/// so Enter seemed to do nothing. The prompt stays on the view's last row and the status line
/// under it (the workbench's one) says why.
#[test]
fn a_refused_name_says_why_while_the_prompt_stays_open() {
    use crate::tui::message::Message;
    use crate::tui::test_util::TestApp;
    let mut t = TestApp::new(150, 19);
    t.press(KeyCode::F(5));
    t.app.profiles = loaded();
    t.update(Message::Status("saved /cfg/profiles/shop.toml".into()));
    t.type_str("n");
    let rows = t.lines();
    // The view's last row, above the workbench's footer and status line.
    let prompt = &rows[rows.len() - 3];
    assert!(prompt.contains("New profile name:"), "{prompt}");
    assert!(
        !prompt.contains("saved /cfg"),
        "old status on the prompt: {prompt}"
    );
    t.type_str("a/b");
    t.press(KeyCode::Enter);
    assert!(
        matches!(t.profiles.mode, Mode::Name { .. }),
        "the prompt stays open"
    );
    let rows = t.lines();
    assert!(
        rows[rows.len() - 3].contains("New profile name: a/b"),
        "{rows:?}"
    );
    let status = rows.last().unwrap();
    assert!(
        status.contains("\"a/b\" is not a usable profile name"),
        "{status}"
    );
    // Taken name, when renaming.
    t.press(KeyCode::Esc);
    t.app.profiles.list.selected = 1;
    t.type_str("r");
    t.press(KeyCode::Enter);
    let rows = t.lines();
    assert!(rows[rows.len() - 3].contains("New name: shop"), "{rows:?}");
    let status = rows.last().unwrap();
    assert!(
        status.contains("A profile named shop already exists"),
        "{status}"
    );
}

#[test]
fn draws_list_file_location_and_masks_the_rest_key_unless_revealed() {
    let mut s = loaded();
    s.list.selected = 1;
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = render(&s, w, h);
        assert!(screen.contains("Profiles (2)"), "{w}x{h}\n{screen}");
        assert!(screen.contains("demo (in use)"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("/cfg/profiles/shop.toml"),
            "{w}x{h}\n{screen}"
        );
        assert!(
            screen.contains("http://127.0.0.1:7001"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("KLEVU"), "{w}x{h}\n{screen}");
        assert!(screen.contains("bad.toml line 3"), "{w}x{h}\n{screen}");
        assert!(
            !screen.contains("s3cr3t"),
            "{w}x{h}: key shown unrevealed\n{screen}"
        );
    }
    update(&mut s, key(KeyCode::Char('v')));
    assert!(render(&s, 120, 40).contains("s3cr3t-rest-key"));
    // In the edit form too.
    update(&mut s, key(KeyCode::Char('v')));
    update(&mut s, key(KeyCode::Char('e')));
    let screen = render(&s, 80, 24);
    assert!(screen.contains("Editing shop"), "{screen}");
    assert!(!screen.contains("s3cr3t"), "{screen}");
    // Delete confirmation is on screen.
    update(&mut s, key(KeyCode::Esc));
    update(&mut s, key(KeyCode::Char('d')));
    assert!(render(&s, 80, 24).contains("Delete profile shop and its file?"));
}

// -----------------------------------------------------------------------------------------
// Mouse: events aimed at cells from `layout`, the layout `draw` uses.

use crate::tui::test_util::{click_in, reversed, wheel_in};

fn area(w: u16, h: u16) -> Rect {
    crate::tui::layout::frame_layout(Rect::new(0, 0, w, h)).1
}

fn mouse(s: &mut ProfilesState, m: MouseEvent, a: Rect) {
    update(s, ProfilesMsg::Mouse(m, a));
}

#[test]
fn clicking_a_profile_selects_it_and_it_is_drawn_highlighted() {
    for (w, h) in [(80, 24), (120, 40)] {
        let a = area(w, h);
        let mut s = loaded();
        assert_eq!(s.list.selected, 0);
        let l = layout(a, &s);
        let (i, r) = l.window.rows[1];
        mouse(&mut s, click_in(r), a);
        assert_eq!(s.list.selected, i, "{w}x{h}");
        assert_eq!(s.selected_profile().unwrap().name, "shop");
        let buf = shown(&s, w, h);
        assert!(
            reversed(&buf, r.y, r.x, r.x + 4),
            "{w}x{h}: shop highlighted"
        );
        let (_, demo) = l.window.rows[0];
        assert!(!reversed(&buf, demo.y, demo.x, demo.x + 4), "{w}x{h}");
        // The detail follows the selection.
        let screen = render(&s, w, h);
        assert!(screen.contains("/cfg/profiles/shop.toml"), "{screen}");
    }
}

#[test]
fn the_wheel_over_the_list_moves_the_selection_within_bounds() {
    let a = area(80, 24);
    let mut s = loaded();
    let list = layout(a, &s).list;
    mouse(&mut s, wheel_in(list, true), a);
    assert_eq!(s.list.selected, 1);
    mouse(&mut s, wheel_in(list, true), a);
    assert_eq!(s.list.selected, 1, "stays on the last profile");
    mouse(&mut s, wheel_in(list, false), a);
    assert_eq!(s.list.selected, 0);
    // The wheel over the detail pane does not move the selection.
    let detail = layout(a, &s).detail;
    mouse(&mut s, wheel_in(detail, true), a);
    assert_eq!(s.list.selected, 0);
}

#[test]
fn in_edit_mode_a_click_focuses_the_field_under_it() {
    for (w, h) in [(80, 24), (120, 40)] {
        let a = area(w, h);
        let mut s = loaded();
        s.list.selected = 1;
        update(&mut s, key(KeyCode::Char('e')));
        let l = layout(a, &s);
        assert_eq!(l.edit_fields.len(), EditField::ALL.len(), "{l:?}");
        for f in [
            EditField::HeaderPrefix,
            EditField::KeyKind,
            EditField::IndexingUrl,
        ] {
            let (_, r) = *l.edit_fields.iter().find(|(g, _)| *g == f).unwrap();
            mouse(&mut s, click_in(r), a);
            let Mode::Edit(form) = &s.mode else {
                panic!("still editing")
            };
            assert_eq!(form.focus, f, "{w}x{h}");
        }
        // Typing goes to the clicked field.
        let (_, r) = *l
            .edit_fields
            .iter()
            .find(|(g, _)| *g == EditField::HeaderPrefix)
            .unwrap();
        mouse(&mut s, click_in(r), a);
        type_text(&mut s, "X");
        let Mode::Edit(form) = &s.mode else {
            panic!("still editing")
        };
        assert_eq!(form.header_prefix.text(), "KLEVUX");
        // The clicked field is drawn highlighted where the layout put it.
        let buf = shown(&s, w, h);
        assert!(reversed(&buf, r.y, r.x + 16, r.x + 22), "{w}x{h}");
        // Clicks on the list do not change the profile being edited.
        mouse(&mut s, click_in(l.window.rows[0].1), a);
        assert_eq!(s.list.selected, 1);
        assert!(matches!(s.mode, Mode::Edit(_)));
    }
}

#[test]
fn long_values_wrap_and_the_fields_below_are_still_hit() {
    let a = area(80, 24);
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('e')));
    // A long indexing URL takes more than one row.
    type_text(&mut s, &"/very-long-path-segment".repeat(4));
    let l = layout(a, &s);
    let (_, url) = l.edit_fields[0];
    assert!(url.height > 1, "{url:?}");
    let (_, api) = *l
        .edit_fields
        .iter()
        .find(|(f, _)| *f == EditField::ApiKey)
        .unwrap();
    let screen = render(&s, 80, 24);
    let row = screen.lines().nth(usize::from(api.y)).unwrap();
    assert!(row.contains("API key: shop-public"), "{row:?}\n{screen}");
    mouse(&mut s, click_in(api), a);
    let Mode::Edit(form) = &s.mode else {
        panic!("still editing")
    };
    assert_eq!(form.focus, EditField::ApiKey);
}

#[test]
fn prompts_and_the_delete_confirmation_ignore_clicks() {
    let a = area(80, 24);
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('d')));
    let l = layout(a, &s);
    mouse(&mut s, click_in(l.window.rows[0].1), a);
    assert!(matches!(s.mode, Mode::ConfirmDelete(_)));
    assert_eq!(s.list.selected, 1);
}

/// The text inside a box's border, rows joined with their trailing spaces cut: a value wrapped
/// over several rows reads as one string.
fn pane_text(buf: &ratatui::buffer::Buffer, boxed: Rect) -> String {
    let inner = Rect::new(
        boxed.x + 1,
        boxed.y + 1,
        boxed.width.saturating_sub(2),
        boxed.height.saturating_sub(2),
    );
    (inner.y..inner.y + inner.height)
        .map(|y| {
            (inner.x..inner.x + inner.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// A long profile name is cut in the list at 80 columns; the detail pane shows it and every
/// long value whole (wrapped) at every size.
#[test]
fn long_names_and_urls_are_whole_in_the_detail_pane_at_every_size() {
    let name = "shop-production-europe-west-with-a-long-name";
    let url = "https://indexing.example.com/a/rather/long/path/to/the/indexing/service/v2";
    let mut s = ProfilesState::default();
    update(
        &mut s,
        ProfilesMsg::Loaded {
            profiles: vec![
                Profile::demo(),
                Profile {
                    indexing_url: url.into(),
                    ..Profile::new(name)
                },
            ],
            errors: vec![],
            dir: PathBuf::from("/cfg/profiles"),
        },
    );
    update(&mut s, key(KeyCode::Down));
    for (w, h) in [(80, 24), (120, 40), (200, 50)] {
        let a = area(w, h);
        let buf = shown(&s, w, h);
        let detail = pane_text(&buf, layout(a, &s).detail);
        assert!(detail.contains(name), "{w}x{h}: {detail}");
        assert!(detail.contains(url), "{w}x{h}: {detail}");
    }
}

/// Alt-V in the edit form fills the klevu preset (prefix KLEVU, the vendor's indexing and
/// analytics URLs) as `profile new --vendor klevu` does; the API key and REST key stay.
#[test]
fn the_vendor_preset_fills_prefix_and_urls_and_keeps_the_keys() {
    let mut s = loaded();
    s.list.selected = 1;
    update(&mut s, key(KeyCode::Char('e')));
    let fx = update(
        &mut s,
        ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::ALT)),
    );
    assert!(
        said(&fx).starts_with("klevu preset: prefix KLEVU"),
        "{fx:?}"
    );
    let screen = render(&s, 100, 30);
    assert!(
        screen.contains("https://indexing.ksearchnet.com"),
        "{screen}"
    );
    let effects = work(update(&mut s, key(KeyCode::Enter)));
    match &effects[..] {
        [ProfilesEffect::SaveProfile(p, Some(_))] => {
            let k = &crate::core::vendor::KLEVU;
            assert_eq!(p.indexing_url, k.indexing_url);
            assert_eq!(p.analytics_url, k.analytics_url);
            assert_eq!(p.request().header_prefix, "KLEVU");
            assert_eq!(p.request().api_key, "shop-public");
            assert_eq!(
                p.rest_key,
                KeySource::Stored(Secret::new("s3cr3t-rest-key"))
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The list is sorted by name: after a rename the selection follows the renamed profile (it
/// stayed on the row, so `d` offered to delete another one), and the profile in use is not
/// deleted under the workbench.
#[test]
fn the_selection_follows_a_renamed_profile_and_the_one_in_use_is_not_deleted() {
    let named = |n: &str| Profile::new(n);
    let list = |names: &[&str]| {
        let mut v = vec![Profile::demo()];
        v.extend(names.iter().map(|n| named(n)));
        v
    };
    let mut s = ProfilesState::default();
    let reload = |s: &mut ProfilesState, names: &[&str]| {
        super::update(
            s,
            "alpha",
            ProfilesMsg::Loaded {
                profiles: list(names),
                errors: vec![],
                dir: PathBuf::from("/cfg/profiles"),
            },
        );
    };
    reload(&mut s, &["alpha", "zeta"]);
    s.list.selected = 2;
    assert_eq!(s.selected_profile().unwrap().name, "zeta");
    super::update(&mut s, "alpha", key(KeyCode::Char('r')));
    for _ in 0..4 {
        super::update(&mut s, "alpha", key(KeyCode::Backspace));
    }
    type_text(&mut s, "aaa");
    let fx = work(super::update(&mut s, "alpha", key(KeyCode::Enter)));
    assert!(
        matches!(fx.as_slice(), [ProfilesEffect::RenameProfile { from, profile }] if from == "zeta" && profile.name == "aaa"),
        "{fx:?}"
    );
    super::update(
        &mut s,
        "alpha",
        ProfilesMsg::Done("renamed zeta to aaa".into()),
    );
    reload(&mut s, &["aaa", "alpha"]);
    assert_eq!(s.selected_profile().unwrap().name, "aaa");
    super::update(&mut s, "alpha", key(KeyCode::Char('d')));
    assert!(matches!(s.mode, Mode::ConfirmDelete(ref n) if n == "aaa"));
    super::update(&mut s, "alpha", key(KeyCode::Esc));
    // A plain reload keeps the same profile selected, wherever it moved.
    reload(&mut s, &["0-first", "aaa", "alpha"]);
    assert_eq!(s.selected_profile().unwrap().name, "aaa");

    // The profile in use: refused, in one sentence saying what to do.
    s.list.selected = 3;
    assert_eq!(s.selected_profile().unwrap().name, "alpha");
    let fx = super::update(&mut s, "alpha", key(KeyCode::Char('d')));
    assert!(matches!(s.mode, Mode::Browse));
    assert_eq!(
        said(&fx),
        "Profile alpha is in use, so it was not deleted; open another profile first (select it, Enter), then delete alpha."
    );
}

/// The workbench at 80x24 in the profile manager, `shop` selected and its edit form open.
fn editing_shop() -> crate::tui::test_util::TestApp {
    use crate::tui::test_util::TestApp;
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(5));
    t.app.profiles = loaded();
    t.app.profiles.list.selected = 1;
    t.type_str("e");
    assert!(matches!(t.profiles.mode, Mode::Edit(_)));
    t
}

/// The profile saves the runtime is asked for.
fn saves(cmds: &[crate::tui::effect::Command]) -> Vec<Profile> {
    cmds.iter()
        .filter_map(|c| match c {
            crate::tui::effect::Command::Profiles(ProfilesEffect::SaveProfile(p, _)) => {
                Some((**p).clone())
            }
            _ => None,
        })
        .collect()
}

/// Typed fields of the profile editor used to be lost by Ctrl-Q (no question: the workbench
/// asked only about the request and Events edits), even after leaving the view and coming back.
#[test]
fn quitting_with_profile_editor_changes_asks_and_s_saves_them_then_quits() {
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    use crate::tui::popups::Popup;
    let mut t = editing_shop();
    for _ in 0..3 {
        t.press(KeyCode::Tab); // API key
    }
    t.type_str("qq");
    t.press(KeyCode::F(2));
    let cmds = t.ctrl('q');
    assert!(!cmds.iter().any(|c| matches!(c, Command::Quit)), "{cmds:?}");
    assert!(!t.quit);
    assert!(matches!(t.popup, Some(Popup::ConfirmQuit(_))));
    t.assert_line("unsaved changes to shop");
    t.assert_line("d: quit without saving");
    // Enter (typed by habit) stays, the changes kept.
    t.press(KeyCode::Enter);
    assert!(!t.quit && t.popup.is_none());
    assert_eq!(t.profiles.unsaved_draft(), Some("shop"));
    // s: the form is saved (with the typed key), and the quit follows the save.
    t.ctrl('q');
    let cmds = t.type_str("s");
    let saved = saves(&cmds);
    assert_eq!(saved.len(), 1, "{cmds:?}");
    assert_eq!(saved[0].api_key(), "shop-publicqq");
    assert!(!t.quit, "not before the save is done");
    let cmds = t.update(Message::Profiles(ProfilesMsg::Done(
        "saved /cfg/profiles/shop.toml".into(),
    )));
    assert!(cmds.iter().any(|c| matches!(c, Command::Quit)), "{cmds:?}");
    assert!(t.quit);
}

/// A failed save of the form quits nothing; `d` quits without saving.
#[test]
fn a_failed_profile_editor_save_does_not_quit_and_d_discards() {
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    let mut t = editing_shop();
    t.type_str("/x");
    t.ctrl('q');
    t.type_str("s");
    let cmds = t.update(Message::Profiles(ProfilesMsg::Failed("disk full".into())));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Quit)));
    assert!(!t.quit);
    // A new draft, then d.
    t.app.profiles.list.selected = 1;
    t.type_str("ez");
    t.ctrl('q');
    let cmds = t.type_str("d");
    assert!(cmds.iter().any(|c| matches!(c, Command::Quit)), "{cmds:?}");
    assert!(saves(&cmds).is_empty());
}

/// Esc used to drop the typed fields at once ("Edit cancelled"). With changes it asks: any
/// other key keeps editing (the typing still there), `d` discards; without changes it leaves.
#[test]
fn esc_with_changes_asks_and_only_d_discards_them() {
    let mut t = editing_shop();
    t.press(KeyCode::Tab); // Analytics URL
    t.type_str("abc");
    t.press(KeyCode::Esc);
    assert!(matches!(t.profiles.mode, Mode::Edit(_)), "still editing");
    t.assert_line("Discard the changes to shop?");
    // Any other key: kept, and not typed into the field.
    t.type_str("x");
    t.assert_line("http://127.0.0.1:7002abc");
    t.assert_no_line("7002abcx");
    t.assert_no_line("Discard the changes");
    assert!(
        t.status.contains("Kept the changes to shop"),
        "{}",
        t.status
    );
    // Esc, then d: discarded.
    t.press(KeyCode::Esc);
    t.type_str("d");
    assert!(matches!(t.profiles.mode, Mode::Browse));
    assert!(t.status.contains("discarded"), "{}", t.status);
    // No changes: Esc leaves at once.
    t.type_str("e");
    t.press(KeyCode::Esc);
    assert!(matches!(t.profiles.mode, Mode::Browse));
}

/// The edit form saved any text as a URL (`indexing_url = "cfromcur"`), found only when a
/// send failed. It is refused as `profile new` refuses it, naming the field and the form to
/// write; the form stays open with the text typed.
#[test]
fn the_edit_form_refuses_a_url_no_send_could_use_and_keeps_the_typing() {
    let mut t = editing_shop();
    t.ctrl('u');
    t.type_str("cfromcur");
    let cmds = t.press(KeyCode::Enter);
    assert!(saves(&cmds).is_empty(), "{cmds:?}");
    assert!(matches!(t.profiles.mode, Mode::Edit(_)));
    assert!(t.status.starts_with("Indexing URL:"), "{}", t.status);
    assert!(t.status.contains("http://host:port"), "{}", t.status);
    t.assert_line("Indexing URL: cfromcur");
    // The analytics URL too; `embedded` and a real URL are accepted.
    t.ctrl('u');
    t.type_str("embedded");
    t.press(KeyCode::Tab);
    t.ctrl('u');
    t.type_str("http://stats.example.com/path");
    let cmds = t.ctrl('s');
    assert!(saves(&cmds).is_empty());
    assert!(t.status.starts_with("Analytics URL:"), "{}", t.status);
    t.ctrl('u');
    t.type_str("https://stats.example.com");
    let saved = saves(&t.ctrl('s'));
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].indexing_url, "embedded");
    assert_eq!(saved[0].analytics_url, "https://stats.example.com");
}

/// The form showed no cursor (only the whole field reversed), and its heading named Enter
/// while the footer named Ctrl-S.
#[test]
fn the_edit_form_shows_the_cursor_at_the_insertion_point_and_names_both_save_keys() {
    let mut t = editing_shop();
    t.press(KeyCode::Tab); // Analytics URL: http://127.0.0.1:7002
    t.press(KeyCode::Left);
    t.press(KeyCode::Left);
    t.draw();
    let b = t.term.backend();
    assert!(b.cursor_visible(), "the cursor is shown");
    let p = b.cursor_position();
    let (x, y) = t.find("Analytics URL: http").expect("the field");
    let start = x + "Analytics URL: ".len() as u16;
    assert_eq!(
        (p.x, p.y),
        (start + "http://127.0.0.1:70".len() as u16, y),
        "{}",
        t.screen()
    );
    t.assert_line("Enter or Ctrl-S saves");
    // The key-kind picker takes no text: no cursor.
    t.press(KeyCode::Tab);
    t.press(KeyCode::Tab);
    t.press(KeyCode::Tab);
    t.draw();
    assert!(!t.term.backend().cursor_visible());
}

/// A refused profile name's reason was cut at 80 columns, and the cut part was the fix ("use
/// 1-64 letters, digits, ..."). It is drawn whole on its own rows above the prompt.
#[test]
fn a_refused_name_shows_its_whole_reason_above_the_prompt_at_80_columns() {
    use crate::tui::test_util::TestApp;
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(5));
    t.app.profiles = loaded();
    t.type_str("nmy/p");
    t.press(KeyCode::Enter);
    let rows = t.lines();
    let prompt = rows
        .iter()
        .position(|r| r.starts_with("New profile name: my/p"))
        .expect("the prompt");
    let above = rows[..prompt]
        .iter()
        .rev()
        .take(3)
        .rev()
        .map(|r| r.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let why = crate::store::profile::validate_name("my/p")
        .unwrap_err()
        .to_string();
    assert!(above.contains(&why), "{above:?} lacks {why:?}");
    // The next key clears it; the prompt keeps the typing.
    t.press(KeyCode::Backspace);
    let rows = t.lines();
    let prompt = rows
        .iter()
        .position(|r| r.starts_with("New profile name: my/▏"))
        .expect("the prompt");
    assert!(!rows[prompt - 1].contains("usable"), "{rows:?}");
}
