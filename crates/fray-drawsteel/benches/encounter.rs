//! Benchmarks of the Draw Steel sample encounter on the engine's hot path (`node`, `legal`,
//! `apply` with no journal): one full random-bot combat, the legal actions of the opening
//! decision, a state clone and a view.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fray_ai::RandomBot;
use fray_core::dice::SeededDice;
use fray_core::game::{Game, Node, NullSink, Viewer};
use fray_drawsteel::{DrawSteel, EncounterSetup, State};

fn new_combat(game: &DrawSteel, seed: u64) -> (State, SeededDice) {
    let mut dice = SeededDice::new(seed);
    let state = game.start(&EncounterSetup::default(), &mut dice, &mut NullSink).unwrap();
    (state, dice)
}

fn play_out(game: &DrawSteel, seed: u64) -> usize {
    let (mut state, mut dice) = new_combat(game, seed);
    let mut bot = RandomBot::new(seed);
    let mut legal = Vec::new();
    let mut n = 0;
    while let Node::Decide { seats, .. } = game.node(&state) {
        let seat = seats.first().expect("a seat is asked");
        legal.clear();
        game.legal(&state, seat, &mut legal);
        let a = bot.pick(&legal);
        game.apply(&mut state, seat, a, &mut dice, &mut NullSink).expect("offered actions are accepted");
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let game = DrawSteel::builtin();
    let mut seed = 0;
    c.bench_function("drawsteel: one random-bot combat (the sample encounter)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(&game, seed))
        })
    });
    let (state, _) = new_combat(&game, 7);
    let seat = game.node(&state).seats().first().unwrap();
    let mut legal = Vec::new();
    c.bench_function("drawsteel: legal actions of the opening decision", |b| {
        b.iter(|| {
            legal.clear();
            game.legal(black_box(&state), seat, &mut legal);
            legal.len()
        })
    });
    c.bench_function("drawsteel: state clone", |b| b.iter(|| black_box(state.clone())));
    c.bench_function("drawsteel: view", |b| b.iter(|| black_box(game.view(&state, Viewer::Referee))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
