//! A behaviour fingerprint for optimisation work: random-bot matches on several setups, every
//! decision (seat, unit, kind, prompt, each option's id and label, the answer) and every journal
//! line hashed per seed. The hashes recorded in `journal_fingerprint.txt` come from the code before
//! the speed work, re-recorded once when Empathic Bond stopped offering its user as its own ally
//! (the 132 matches with a Diviner holding it changed, nothing else), and again when the Creeps
//! were played whole (issue 13: K-CTYPE, K-FM-9, K-CAI-18, K-SCO-5..10, Heave, Roar, Beckon,
//! Aura of Desire; every setup with Creeps changed, `no-creeps` did not), and again when
//! Discriminating Eruption stopped healing its user, summons and traps and Trick Shot could drop
//! a flask (issue 13 faults), and again for the Creep AI as written (issue 13 item 2: K-CAI-7,
//! K-CAI-13, K-CAI-14, K-CAI-17, Dazed Creeps, Creeps' Opportunities only on their list and the
//! athlete's choice of a costly one, a Charge's attack declared after its run, no HP restored
//! to a Taken Out Creep, the escape menu's repeated statuses; every setup with Creeps changed,
//! `no-creeps` did not), and again when intervening cover became exact (K-COV-8: a thin line
//! the sampled test missed now gives cover), and again for Override 0.2 (K-CAI-8: a Creep's
//! burst walks to take in the most targets), and again when the rival teams' own versions of
//! three class powers joined the power table (only the `every-power` setups, which hand out
//! every playable power, changed), and again when three more (Raqua's Staff Trap, Hayward's
//! Sword Trap, Obi's Ripping Tides; issue 13 item 5) joined it (the same setups only), and when
//! the Dungeon Squid's Lightweight, Pain of Eros's last turn and Madeline's Trick Shot were
//! played (issue 13's last items); a change
//! meant to be invisible must leave every one of them as it was.
//!
//! `cargo test -p fray-kazzam --test all journal_fingerprint -- --ignored` (the test build is optimised;
//! `--release` works too, but its whole-program optimisation makes the build much slower);
//! `FRAY_FINGERPRINT_WRITE=1` rewrites the file (only when behaviour is meant to change).

use fray_ai::RandomBot;
use fray_core::dice::SeededDice;
use fray_core::game::Game;
use fray_kazzam::Kazzam;
use fray_kazzam::content::Content;
use fray_kazzam::content::builtin;
use fray_kazzam::engine::options::TableOptions;
use fray_kazzam::engine::setup::Setup;
use std::sync::{Arc, LazyLock};

/// The built-in content, built once for every setup.
static CONTENT: LazyLock<Arc<Content>> = LazyLock::new(|| Arc::new(Content::builtin()));

const JETSAM: &str = include_str!("../../../../examples/kazzam/team-jetsam.toml");
const FLOTSAM: &str = include_str!("../../../../examples/kazzam/team-flotsam.toml");
const TAMER: &str = include_str!("../../../../examples/kazzam/tamer.toml");
const SWORD: &str = include_str!("../../../../examples/kazzam/shivering-sword.toml");
const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/journal_fingerprint.txt");

/// FNV-1a, 64 bits: stable across toolchains.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn put(&mut self, s: &str) {
        for b in s.bytes().chain([0xff]) {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Every class and role power Fray plays on every athlete (as the all-powers random-play test).
fn every_power() -> Setup {
    let all = CONTENT.powers().clone();
    let options = TableOptions { creeps: true, ..Default::default() };
    let mut setup = builtin::default_setup(&CONTENT, options).unwrap();
    setup.powers = all.clone();
    for (u, _) in &mut setup.units {
        if u.kind.as_deref() == Some("creep") {
            continue;
        }
        u.level = Some(if u.team == "red" { 6 } else { 1 });
        let imp = u.implement.clone().unwrap_or_default();
        u.learned = vec!["shivering-sword-regenerative".into()];
        u.features = vec!["diviner-seer".into(), "diviner-scryer".into(), "diviner-empath".into()];
        for d in all.all().iter().filter(|d| !d.reference_only && (d.class.is_some() || d.role.is_some())) {
            if d.requires.as_ref().is_none_or(|r| *r == imp) && !u.powers.contains(&d.id) {
                u.powers.push(d.id.clone());
            }
        }
        for f in fray_kazzam::engine::triggers::FEATURES {
            if !u.features.iter().any(|x| x == f) {
                u.features.push(f.to_string());
            }
        }
    }
    setup
}

/// Every played class feature on every athlete (as the features random-play test).
fn every_feature() -> Setup {
    let played: Vec<String> = CONTENT
        .features()
        .iter()
        .filter(|id| fray_kazzam::classes::features::Feature::parse(id, &CONTENT).is_some_and(|f| f.played()))
        .cloned()
        .collect();
    let mut setup = builtin::default_setup(&CONTENT, Default::default()).unwrap();
    setup.powers = CONTENT.powers().clone();
    for (u, _) in &mut setup.units {
        u.level = Some(if u.team == "red" { 5 } else { 1 });
        u.features = played.iter().filter(|f| *f != "shivering-sword-regenerative").cloned().collect();
        u.learned = vec!["shivering-sword-regenerative".into()];
        u.charge_tokens = Some(2);
        u.powers.extend(["self-lift-flight".to_string(), "change-spell".to_string()]);
    }
    setup
}

/// A setup's name, how many seeds of it are played, and how it is made.
type Family = (&'static str, u64, fn() -> Setup);

/// The setups and how many seeds of each are played.
fn families() -> Vec<Family> {
    vec![
        ("default", 100, || builtin::default_setup(&CONTENT, Default::default()).unwrap()),
        ("no-creeps", 30, || {
            builtin::default_setup(&CONTENT, TableOptions { creeps: false, ..Default::default() }).unwrap()
        }),
        ("teams", 100, || {
            builtin::team_setup(
                &CONTENT,
                ("team-jetsam.toml", JETSAM),
                ("team-flotsam.toml", FLOTSAM),
                Default::default(),
            )
            .unwrap()
        }),
        ("tamer", 20, || {
            builtin::team_setup(&CONTENT, ("tamer.toml", TAMER), ("team-flotsam.toml", FLOTSAM), Default::default())
                .unwrap()
        }),
        ("sword", 20, || {
            builtin::team_setup(
                &CONTENT,
                ("shivering-sword.toml", SWORD),
                ("team-jetsam.toml", JETSAM),
                Default::default(),
            )
            .unwrap()
        }),
        ("features", 20, every_feature),
        ("every-power", 12, every_power),
    ]
}

/// One match's fingerprint.
fn fingerprint(seed: u64, setup: Setup) -> String {
    let game = Kazzam::builtin();
    let mut dice = SeededDice::new(seed);
    let mut journal: Vec<fray_kazzam::Event> = Vec::new();
    let mut state = game.start_from(setup, &mut dice, &mut journal).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut h = Fnv::new();
    let mut n = 0;
    let mut legal = Vec::new();
    while let Some((seat, d)) = game.pending(&state) {
        h.put(&d.seat);
        h.put(d.unit.as_deref().unwrap_or("-"));
        h.put(&d.kind);
        h.put(&d.prompt);
        for o in &d.options {
            h.put(&o.id);
            h.put(&o.label);
        }
        legal.clear();
        game.legal(&state, seat, &mut legal);
        let action = bot.pick(&legal);
        let choice = game.describe(&state, action).id;
        h.put(&choice);
        game.apply(&mut state, seat, action, &mut dice, &mut journal)
            .unwrap_or_else(|e| panic!("seed {seed}: {choice:?} refused: {e}"));
        n += 1;
        assert!(n < 50_000, "seed {seed}: no end");
    }
    for e in &journal {
        h.put(&e.to_string());
    }
    format!("{:016x} {n} {}", h.0, journal.len())
}

#[test]
#[ignore = "slow: plays several hundred matches; run with --ignored"]
fn random_play_is_unchanged() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut jobs: Vec<Family> = Vec::new();
    for (name, seeds, f) in families() {
        jobs.extend((0..seeds).map(|s| (name, s, f)));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut lines: Vec<(usize, String)> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(name, seed, f)) = jobs.get(i) else { break };
                        out.push((i, format!("{name} {seed} {}", fingerprint(seed, f()))));
                    }
                    out
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    lines.sort();
    let got: String = lines.into_iter().map(|(_, l)| l + "\n").collect();
    if std::env::var("FRAY_FINGERPRINT_WRITE").is_ok() {
        std::fs::write(FILE, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(FILE).expect("journal_fingerprint.txt (FRAY_FINGERPRINT_WRITE=1 makes it)");
    let diff: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("was {a}\n now {b}"))
        .take(20)
        .collect();
    assert!(diff.is_empty() && want.lines().count() == got.lines().count(), "behaviour changed:\n{}", diff.join("\n"));
}
