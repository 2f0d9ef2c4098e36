//! Benchmarks of whole Kazzam matches and the hot paths under them: one full random-bot match
//! on the built-in arena, the action menu, and a state clone.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fray_ai::{Bot, RandomBot};
use fray_core::dice::{AnyDice, SeededDice};
use fray_core::ruleset::Ruleset;
use fray_core::session::Session;
use fray_kazzam::{Kazzam, builtin};

fn new_match(seed: u64) -> Session<Kazzam> {
    let mut dice = SeededDice::new(seed);
    let (state, journal) = builtin::start(builtin::default_setup(Default::default()).unwrap(), &mut dice).unwrap();
    Session::with_journal(state, AnyDice::Seeded(dice), journal)
}

fn play_out(seed: u64) -> usize {
    let mut session = new_match(seed);
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
    c.bench_function("kazzam: one random-bot match (30 rounds, 3 v 3)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(seed))
        })
    });
    let session = new_match(7);
    c.bench_function("kazzam: action menu (the pending decision)", |b| b.iter(|| black_box(session.decision())));
    c.bench_function("kazzam: state clone", |b| b.iter(|| black_box(session.state().clone())));
    c.bench_function("kazzam: view", |b| b.iter(|| black_box(Kazzam::view(session.state()))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
