//! Benchmarks of whole Kazzam matches and the hot paths under them: one full random-bot match
//! on the built-in arena, the action menu (also of athletes holding every playable power, the
//! worst case random play checks), and a state clone.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::ruleset::Ruleset;
use fray_core::session::Session;
use fray_kazzam::{Kazzam, builtin};

fn new_match(seed: u64, creeps: bool) -> Session<Kazzam> {
    let mut dice = SeededDice::new(seed);
    let options = fray_kazzam::options::TableOptions { creeps, ..Default::default() };
    let (state, journal) = builtin::start(builtin::default_setup(options).unwrap(), &mut dice).unwrap();
    Session::with_journal(state, AnyDice::Seeded(dice), journal)
}

/// The built-in match with every class and role power Fray plays given to every athlete (as
/// the all-powers random-play test does): the widest action menu there is.
fn every_power_match(seed: u64) -> Session<Kazzam> {
    let all = fray_kazzam::powers::Powers::with_content().unwrap();
    let options = fray_kazzam::options::TableOptions { creeps: true, ..Default::default() };
    let mut setup = builtin::default_setup(options).unwrap();
    for (u, _) in &mut setup.units {
        if u.kind.as_deref() == Some("creep") {
            continue;
        }
        u.level = Some(6);
        let imp = u.implement.clone().unwrap_or_default();
        for d in all.all().iter().filter(|d| !d.reference_only && (d.class.is_some() || d.role.is_some())) {
            if d.requires.as_ref().is_none_or(|r| *r == imp) && !u.powers.contains(&d.id) {
                u.powers.push(d.id.clone());
            }
        }
    }
    setup.powers = all;
    let mut dice = SeededDice::new(seed);
    let (state, journal) = builtin::start(setup, &mut dice).unwrap();
    Session::with_journal(state, AnyDice::Seeded(dice), journal)
}

fn play_out(seed: u64, creeps: bool) -> usize {
    let mut session = new_match(seed, creeps);
    let mut bot = RandomBot::new(seed);
    let mut n = 0;
    while let Some(d) = session.decision() {
        let c = <RandomBot as Bot<Kazzam>>::choose(&mut bot, session.state(), &d);
        session.choose_in_place(&c).expect("offered options are legal");
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut seed = 0;
    c.bench_function("kazzam: one random-bot match (30 rounds, 3 v 3, two Creep groups)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(seed, true))
        })
    });
    c.bench_function("kazzam: one random-bot match (30 rounds, 3 v 3, no Creeps)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(seed, false))
        })
    });
    let session = new_match(7, true);
    c.bench_function("kazzam: action menu (the pending decision)", |b| b.iter(|| black_box(session.decision())));
    let widest = every_power_match(7);
    c.bench_function("kazzam: action menu, every playable power on every athlete", |b| {
        b.iter(|| black_box(widest.decision()))
    });
    c.bench_function("kazzam: state clone", |b| b.iter(|| black_box(session.state().clone())));
    c.bench_function("kazzam: view", |b| b.iter(|| black_box(Kazzam::view(session.state()))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
