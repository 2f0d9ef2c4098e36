//! A behaviour fingerprint for optimisation work: random-bot combats under several sets of table
//! options, every decision (seat, unit, kind, prompt, each option's id, label and square, the
//! legal action ids, the answer), every journal line and every 16th referee view hashed per
//! seed. Each combat is also played a second time with a [`NullSink`] (as bots and search
//! play), whose decisions must be the same. The hashes in `journal_fingerprint.txt` come from the
//! code before the speed work; a change meant to be invisible must leave every one as it was.
//!
//! `cargo test -p fray-drawsteel --test all journal_fingerprint -- --ignored` (the test build is optimised;
//! `--release` works too, but its whole-program optimisation makes the build much slower);
//! `FRAY_FINGERPRINT_WRITE=1` rewrites the file (only when behaviour is meant to change).
//!
//! Re-recorded for issue 19: the Director's Malice (gains each round, Malice features on its
//! creatures' menus), Heroic Resources for the sample heroes' classes, and the new menu entries
//! and action ids (Brutal Effectiveness, Malicious Strike, End Effect, Solo Action) change the
//! random combats.
//!
//! Re-recorded for issue 19's third pass (the tactician's focus for an ally's heroic ability,
//! the null's discipline for spent Malice, a squad's shared maneuver rolls, Defend ruling out
//! extra main actions): one glossary-family combat (seed 20) changed; the others are as they
//! were.

use fray_ai::RandomBot;
use fray_core::dice::SeededDice;
use fray_core::game::{Game, Node, NullSink, Viewer};
use fray_drawsteel::{DrawSteel, EncounterSetup, Event};

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

/// A name for a set of table options, how many seeds of it are played, and the options.
type Family = (&'static str, u64, &'static [&'static str]);

const FAMILIES: &[Family] = &[
    ("default", 100, &[]),
    ("lower-tier", 30, &["offer-lower-tier=true"]),
    ("hidden-glossary", 30, &["hidden=glossary"]),
    (
        "glossary",
        30,
        &[
            "bleeding=glossary",
            "critical=glossary",
            "initiative=glossary",
            "push=glossary",
            "collisions=glossary",
            "hero-tokens-on-tests=glossary",
            "grabbed=glossary",
            "hidden=glossary",
            "jumping=glossary",
        ],
    ),
    ("tokens", 20, &["hero-tokens=5", "round-limit=6", "offer-lower-tier=true"]),
];

/// One combat's fingerprint.
fn fingerprint(seed: u64, options: &[&str]) -> String {
    let game = DrawSteel::builtin();
    let setup = EncounterSetup { options: options.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let mut dice = SeededDice::new(seed);
    let mut journal: Vec<Event> = Vec::new();
    let mut state = game.start(&setup, &mut dice, &mut journal).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut h = Fnv::new();
    let mut ids = Fnv::new();
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
            h.put(&format!("{:?}", o.square));
        }
        legal.clear();
        game.legal(&state, seat, &mut legal);
        for a in &legal {
            ids.put(&a.0.to_string());
        }
        let action = bot.pick(&legal);
        let choice = game.describe(&state, action).id;
        h.put(&choice);
        if n % 16 == 0 {
            h.put(&serde_json::to_string(&game.view(&state, Viewer::Referee)).unwrap());
        }
        game.apply(&mut state, seat, action, &mut dice, &mut journal)
            .unwrap_or_else(|e| panic!("seed {seed}: {choice:?} refused: {e}"));
        n += 1;
        assert!(n < 50_000, "seed {seed}: no end");
    }
    h.put(&format!("{:?}", game.outcome(&state)));
    for e in &journal {
        h.put(&e.to_string());
    }
    // The same combat through a sink that keeps nothing: the same actions offered and taken.
    let mut dice = SeededDice::new(seed);
    let mut state = game.start(&setup, &mut dice, &mut NullSink).unwrap();
    let mut bot = RandomBot::new(seed);
    let mut quiet = Fnv::new();
    let mut m = 0;
    while let Node::Decide { seats, .. } = game.node(&state) {
        let seat = seats.first().unwrap();
        legal.clear();
        game.legal(&state, seat, &mut legal);
        for a in &legal {
            quiet.put(&a.0.to_string());
        }
        let action = bot.pick(&legal);
        game.apply(&mut state, seat, action, &mut dice, &mut NullSink).unwrap();
        m += 1;
        assert!(m < 50_000, "seed {seed}: no end without a journal");
    }
    assert_eq!((ids.0, n), (quiet.0, m), "seed {seed}: a NullSink combat played differently");
    format!("{:016x} {:016x} {n} {}", h.0, ids.0, journal.len())
}

#[test]
#[ignore = "slow: plays a few hundred combats twice; run with --ignored"]
fn random_play_is_unchanged() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut jobs: Vec<(&str, u64, &[&str])> = Vec::new();
    for &(name, seeds, options) in FAMILIES {
        jobs.extend((0..seeds).map(|s| (name, s, options)));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut lines: Vec<(usize, String)> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(name, seed, options)) = jobs.get(i) else { break };
                        out.push((i, format!("{name} {seed} {}", fingerprint(seed, options))));
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
