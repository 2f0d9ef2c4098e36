//! Benchmarks of whole Kazzam matches and the hot paths under them: one full random-bot match
//! on the built-in arena, the action menu, and a state clone.
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
    c.bench_function("kazzam: state clone", |b| b.iter(|| black_box(session.state().clone())));
    c.bench_function("kazzam: view", |b| b.iter(|| black_box(Kazzam::view(session.state()))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
