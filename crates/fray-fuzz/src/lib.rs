//! The bodies of Fray's fuzz targets (issue 14): each takes any bytes and either gets a clear
//! error or works, and never panics, hangs or breaks an invariant. `fuzz/` (cargo-fuzz, nightly
//! or `RUSTC_BOOTSTRAP=1`) runs them under libFuzzer; this crate's `corpus` test runs them on
//! stable over the seed corpus, the regression files and seeded mutations of both, inside
//! `cargo test --workspace`.
//!
//! | target | what the bytes are | entry point |
//! | --- | --- | --- |
//! | `kazzam_scenario` | a scenario file | `System::run_scenario` (Kazzam) |
//! | `drawsteel_scenario` | a scenario file | `System::run_scenario` (Draw Steel) |
//! | `kazzam_team` | a team file | `System::check_build`, then a match against a book team |
//! | `kazzam_content` | a content file's name, a newline, its text | `Content::from_files` with the built-in files |
//! | `kazzam_map` | a map file | `System::check_build`, then a match on it |
//! | `save` | a saved match (`fray view`) | `System::replay` of the system it names |
//! | `command` | a setup choice, a seed, then one byte a decision | `Table::legal`/`apply`/`choose`/`act_json` |

#![deny(missing_docs)]

pub mod corpus;
pub mod mutate;

use fray_core::game::{ActionId, Seat, Viewer};
use fray_core::table::{BuildReport, Registry, SetupRequest, System, Table, TeamText};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

/// A fuzz target: its name (the cargo-fuzz target's and the corpus folder's) and its body.
pub struct Target {
    /// The name, as `cargo fuzz run NAME` and `fuzz/corpus/NAME` spell it.
    pub name: &'static str,
    /// The body: any bytes; it panics only on a bug.
    pub run: fn(&[u8]),
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target { name: "kazzam_scenario", run: kazzam_scenario },
    Target { name: "drawsteel_scenario", run: drawsteel_scenario },
    Target { name: "kazzam_team", run: kazzam_team },
    Target { name: "kazzam_content", run: kazzam_content },
    Target { name: "kazzam_map", run: kazzam_map },
    Target { name: "save", run: save },
    Target { name: "command", run: command },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// The systems every target shares (built once: the built-in content takes a while to load).
struct Systems {
    registry: Registry,
    content: Arc<fray_kazzam::Content>,
}

fn systems() -> &'static Systems {
    static SYSTEMS: OnceLock<Systems> = OnceLock::new();
    SYSTEMS.get_or_init(|| {
        let content = Arc::new(fray_kazzam::Content::builtin());
        let kazzam = Arc::new(fray_kazzam::Kazzam::with_content(content.clone()));
        let drawsteel = Arc::new(fray_drawsteel::game::DrawSteel::builtin());
        Systems {
            registry: Registry::new()
                .with(fray_kazzam::engine::game::system_of(kazzam))
                .with(fray_drawsteel::game::system_of(drawsteel)),
            content,
        }
    })
}

fn system(id: &str) -> &'static Arc<dyn System> {
    systems().registry.get(id).expect("a registered system")
}

/// Input files are UTF-8 text (`fray` refuses anything else before a loader sees it).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The most lines one error report may have: `capped` lists 50 problems and "…and N more",
/// and a problem may take a few lines.
const MAX_ERROR_LINES: usize = 400;

/// A refusal must say what is wrong, in a bounded report (issue 14: one error per problem,
/// capped, never one per square).
fn clear_error(what: &str, error: &str) {
    assert!(!error.trim().is_empty(), "{what}: refused with an empty error {error:?}");
    let lines = error.lines().count();
    assert!(lines <= MAX_ERROR_LINES, "{what}: an error of {lines} lines:\n{}", head(error));
}

fn clear_errors(what: &str, errors: &[String]) {
    assert!(!errors.is_empty(), "{what}: refused with no error");
    // A multi-line error (TOML's, with the line quoted) may arrive split into lines, blank ones
    // too: the report as a whole must say something.
    clear_error(what, &errors.join("\n"));
    let lines: usize = errors.iter().map(|e| e.lines().count()).sum();
    assert!(lines <= MAX_ERROR_LINES, "{what}: {lines} lines of errors:\n{}", head(&errors.join("\n")));
}

fn head(s: &str) -> String {
    s.lines().take(20).collect::<Vec<_>>().join("\n")
}

/// A Kazzam scenario file, run to its end.
pub fn kazzam_scenario(data: &[u8]) {
    scenario("kazzam", data);
}

/// A Draw Steel scenario file, run to its end.
pub fn drawsteel_scenario(data: &[u8]) {
    scenario("drawsteel", data);
}

fn scenario(id: &str, data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Err(e) = system(id).run_scenario("fuzz.toml", text) {
        clear_error("scenario", &e);
    }
}

/// A Kazzam team file: checked as `fray build` checks it, then (if legal) a match against a book
/// team, a few decisions deep.
pub fn kazzam_team(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let sys = system("kazzam");
    if let BuildReport::Illegal(e) = sys.check_build("team.toml", text) {
        clear_errors("team", &e);
    }
    let book = sys.builtin_team("kishanta").expect("a book team");
    let request = SetupRequest {
        teams: vec![
            TeamText { path: "team.toml".into(), text: text.into() },
            TeamText { path: "kishanta".into(), text: book.into() },
        ],
        ..SetupRequest::default()
    };
    start_and_play("team", sys.as_ref(), &request, data, 40);
}

/// A Kazzam content file: the first line names it (`content/kazzam/classes/hexer.toml`), the rest
/// is its text; it replaces the built-in file of that name (or is added), and the whole content
/// loads; if it does, the default match and a team match play a few decisions with it.
pub fn kazzam_content(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let (name, body) = text.split_once('\n').unwrap_or((text, ""));
    let mut files: Vec<(String, String)> =
        fray_kazzam::content::builtin_files().into_iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    match files.iter_mut().find(|f| f.0 == name) {
        Some(f) => f.1 = body.to_string(),
        None => files.push((name.to_string(), body.to_string())),
    }
    match fray_kazzam::Content::from_files(files) {
        Err(e) => clear_errors("content", &e),
        Ok(content) => {
            let game = Arc::new(fray_kazzam::Kazzam::with_content(Arc::new(content)));
            let sys = fray_kazzam::engine::game::system_of(game);
            start_and_play("content", sys.as_ref(), &SetupRequest::default(), data, 40);
            let book = |n: &str| TeamText { path: n.into(), text: sys.builtin_team(n).expect("a book team").into() };
            let request =
                SetupRequest { teams: vec![book("driannis-3"), book("bagwung-3")], ..SetupRequest::default() };
            start_and_play("content", sys.as_ref(), &request, data, 40);
        }
    }
}

/// A Kazzam map file: checked as `fray build` checks it, then (if it loads) a match on it with
/// the built-in teams and its Creep groups, a few decisions deep.
pub fn kazzam_map(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let sys = system("kazzam");
    match fray_kazzam::content::maps::load(&systems().content, "map.toml", text) {
        Err(e) => clear_errors("map", &e),
        Ok(map) => {
            let _ = map.describe();
        }
    }
    let request =
        SetupRequest { map: Some(TeamText { path: "map.toml".into(), text: text.into() }), ..SetupRequest::default() };
    start_and_play("map", sys.as_ref(), &request, data, 60);
}

/// A saved match as `fray view` reads it: JSON naming its system, replayed.
pub fn save(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return };
    let Some(id) = json.get("system").and_then(|s| s.as_str()) else { return };
    let Ok(sys) = systems().registry.get(id) else { return };
    match sys.replay(json) {
        Err(e) => clear_error("save", &e),
        Ok(table) => {
            let _ = table.view(Viewer::Referee);
            let _ = table.outcome();
            let _ = table.record_json();
        }
    }
}

/// Starts a match from `request` (a refusal must be a clear error) and plays up to `steps`
/// decisions with every check of [`command`], choices drawn from a generator seeded by `data`.
fn start_and_play(what: &str, sys: &dyn System, request: &SetupRequest, data: &[u8], steps: usize) {
    match sys.new_table(request, 0) {
        Err(e) => clear_errors(what, &e.0),
        Ok(mut table) => {
            let mut rng = ChaCha8Rng::seed_from_u64(xxhash(data));
            let bytes: Vec<u8> = (0..steps).map(|_| rng.gen_range(0..0xC0u8)).collect();
            drive(table.as_mut(), &bytes);
        }
    }
}

fn xxhash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x1000_0000_01b3))
}

/// The built-in setups the `command` target starts from.
const MAPS: [&str; 5] = ["beginner", "dual-dungeons", "maze", "one-way-doors", "throne"];
const TEAMS: [(&str, &str); 3] = [("kishanta", "mormissa"), ("driannis-3", "bagwung-3"), ("kishanta-5", "driannis-5")];

/// The decision interface: byte 0 picks the system and a built-in setup, bytes 1-8 the seed,
/// and each byte after that one step (see [`drive`]).
pub fn command(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let (seed, steps) = rest.split_at(rest.len().min(8));
    let seed = seed.iter().fold(0u64, |s, &b| (s << 8) | b as u64);
    let (sys, request) = if pick & 1 == 0 {
        let sys = system("kazzam");
        let k = (pick >> 1) as usize;
        let text = |name: &str, map: bool| {
            let t = if map { sys.builtin_map(name) } else { sys.builtin_team(name) };
            TeamText { path: name.into(), text: t.expect("a built-in file").into() }
        };
        let mut request = SetupRequest::default();
        match k % 4 {
            0 => {}
            1 => request.map = Some(text(MAPS[k / 4 % MAPS.len()], true)),
            2 => {
                let (h, a) = TEAMS[k / 4 % TEAMS.len()];
                request.teams = vec![text(h, false), text(a, false)];
            }
            _ => {
                request.map = Some(text(MAPS[k / 4 % MAPS.len()], true));
                let (h, a) = TEAMS[k / 20 % TEAMS.len()];
                request.teams = vec![text(h, false), text(a, false)];
                request.options = vec!["creeps=false".into()];
            }
        }
        (sys, request)
    } else {
        (system("drawsteel"), SetupRequest::default())
    };
    let mut table = sys.new_table(&request, seed).unwrap_or_else(|e| panic!("a built-in setup does not start: {e}"));
    drive(table.as_mut(), steps);
}

/// What must not change when an input is refused: the journal, the referee's view (units,
/// score, the pending decision, the log), where the match stands and every seat's options.
fn snapshot(table: &dyn Table) -> (usize, String, String, Vec<Vec<ActionId>>) {
    let view = serde_json::to_string(&table.view(Viewer::Referee)).expect("a view serializes");
    let legal = (0..table.seats().len())
        .map(|s| {
            let mut out = Vec::new();
            table.legal(Seat(s as u8), &mut out);
            out
        })
        .collect();
    (table.journal_len(), view, format!("{:?}", table.node()), legal)
}

/// An input the table refused must have changed nothing; one it took is fine.
fn refused_or_taken(
    table: &mut dyn Table,
    what: &str,
    f: impl FnOnce(&mut dyn Table) -> Result<usize, fray_core::ruleset::RuleError>,
) {
    let before = snapshot(table);
    if let Err(e) = f(table) {
        clear_error(what, &e.to_string());
        assert!(snapshot(table) == before, "{what}: refused ({e}) but the match changed");
    }
}

/// Drives a match, one byte a step, checking after each that a seat the node asks has an option
/// and a seat it does not ask has none, and that a finished match has an outcome:
///
/// - `0x00..=0xBF`: a legal action of an asked seat; it must be accepted;
/// - `0xC0..=0xDF`: an action that is not offered (an id from the next bytes, PASS, BACK, one
///   past the offered ids, or an offered action by a seat not asked); it must be refused and
///   change nothing;
/// - `0xE0..=0xEF`: an option id (an offered one changed, or text from the next bytes);
/// - `0xF0..=0xFF`: a command as JSON built from the next bytes;
///
/// the last two may be taken, and must change nothing when refused. The match ends or the bytes
/// run out.
pub fn drive(table: &mut dyn Table, bytes: &[u8]) {
    let seats = table.seats().len();
    let mut it = bytes.iter().copied();
    let mut legal = Vec::new();
    let mut next = move || it.next();
    while let Some(b) = next() {
        let node = table.node();
        let mut asked = Vec::new();
        for s in 0..seats {
            let seat = Seat(s as u8);
            table.legal(seat, &mut legal);
            let is_asked = node.seats().contains(seat);
            assert!(
                is_asked != legal.is_empty(),
                "seat {s}: asked {is_asked} but offered {} actions at {node:?}",
                legal.len()
            );
            if is_asked {
                asked.push(seat);
            }
            legal.clear();
        }
        if node.is_terminal() {
            assert!(table.outcome().is_some(), "the match is over with no outcome");
            // Nothing more may be taken.
            let a = ActionId(b as u32);
            refused_or_taken(table, "apply after the end", |t| t.apply(Seat(0), a));
            assert!(table.node().is_terminal(), "an action after the end was taken");
            return;
        }
        let seat = asked[b as usize % asked.len()];
        table.legal(seat, &mut legal);
        match b {
            0x00..=0xBF => {
                let a = legal[(b as usize / asked.len()) % legal.len()];
                if let Err(e) = table.apply(seat, a) {
                    panic!("an offered action ({a:?}) was refused: {e}");
                }
            }
            0xC0..=0xDF => {
                let n = next().unwrap_or(0);
                let (who, a) = match n % 5 {
                    0 => (seat, ActionId(u32::from_le_bytes([n, next().unwrap_or(0), next().unwrap_or(0), 0]))),
                    1 => (seat, ActionId::PASS),
                    2 => (seat, ActionId::BACK),
                    3 => (
                        seat,
                        ActionId(legal.iter().filter(|a| a.0 < u32::MAX - 1).map(|a| a.0 + 1).max().unwrap_or(0)),
                    ),
                    _ => match (0..seats).map(|s| Seat(s as u8)).find(|s| !asked.contains(s)) {
                        Some(other) => (other, legal[n as usize % legal.len()]),
                        None => (seat, ActionId(u32::MAX - 2)),
                    },
                };
                let mut offered = Vec::new();
                table.legal(who, &mut offered);
                if !offered.contains(&a) {
                    let before = snapshot(table);
                    match table.apply(who, a) {
                        Ok(_) => panic!("an action not offered ({a:?} by seat {}) was taken", who.0),
                        Err(e) => {
                            clear_error("apply", &e.to_string());
                            assert!(snapshot(table) == before, "apply: refused ({e}) but the match changed");
                        }
                    }
                }
            }
            0xE0..=0xEF => {
                let n = next().unwrap_or(0) as usize;
                let id = match table.decision(seat) {
                    Some(d) if n.is_multiple_of(2) && !d.options.is_empty() => {
                        let mut id = d.options[n / 2 % d.options.len()].id.clone();
                        match n / 2 % 4 {
                            0 => id.push('x'),
                            1 => id = id.to_uppercase(),
                            2 => id.insert(0, ' '),
                            _ => {
                                id.pop();
                            }
                        }
                        id
                    }
                    _ => {
                        let len = n % 12;
                        String::from_utf8_lossy(&(0..len).filter_map(|_| next()).collect::<Vec<_>>()).into_owned()
                    }
                };
                refused_or_taken(table, "choose", |t| t.choose(seat, &id));
            }
            0xF0..=0xFF => {
                let json = command_json(table, &mut next);
                refused_or_taken(table, "act", |t| t.act_json(seat, &json));
            }
        }
        legal.clear();
    }
}

/// A command as JSON: a unit of the match (or another name) and one to three fields, each with
/// a value of a shape the commands read (a name, a square, a route, a flag, a number).
fn command_json(table: &dyn Table, next: &mut impl FnMut() -> Option<u8>) -> serde_json::Value {
    const KEYS: [&str; 18] = [
        "power",
        "ability",
        "target",
        "square",
        "move",
        "shift",
        "crawl",
        "stand",
        "end_turn",
        "charge",
        "free_strike",
        "stand_up",
        "catch_breath",
        "escape_grab",
        "go_prone",
        "defend",
        "creative",
        "advantage",
    ];
    let view = table.view(Viewer::Referee);
    let units: Vec<&String> = view.units.keys().collect();
    let mut byte = || next().unwrap_or(0);
    let n = byte();
    let unit = match units.get(n as usize % (units.len() + 1)) {
        Some(u) => serde_json::json!(u),
        None => serde_json::json!(["", "nobody", "1", "ADA"][n as usize % 4]),
    };
    let mut obj = serde_json::Map::new();
    obj.insert("unit".into(), unit);
    for _ in 0..1 + byte() % 3 {
        let key = KEYS[byte() as usize % KEYS.len()];
        let v = byte();
        let coord = |b: u8| b as i64 % 24 - 2;
        let value = match v % 8 {
            0 => serde_json::json!(true),
            1 => serde_json::json!([coord(byte()), coord(byte())]),
            2 => serde_json::json!([[coord(byte()), coord(byte())], [coord(byte()), coord(byte())]]),
            3 => serde_json::json!(units.get(byte() as usize % units.len().max(1)).map(|u| u.as_str()).unwrap_or("x")),
            4 => serde_json::json!([i64::from(i32::MAX), i64::from(i32::MIN)]),
            5 => serde_json::json!(["basic-implement-attack", "charge", "grab", "", "strike"][byte() as usize % 5]),
            6 => serde_json::json!(-1),
            _ => serde_json::json!(null),
        };
        obj.insert(key.into(), value);
    }
    serde_json::Value::Object(obj)
}
