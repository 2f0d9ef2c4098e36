//! Benchmarks of whole Kazzam matches and the hot paths under them, on the engine's hot path
//! (`node`, `legal`, `apply` with no journal): one full random-bot match on the built-in arena,
//! the legal actions of the opening menu (also of athletes holding every playable power, the
//! worst case random play checks), the full decision a person sees, a state clone, a view.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fray_ai::RandomBot;
use fray_core::dice::SeededDice;
use fray_core::game::{Game, Node, NullSink, Viewer};
use fray_kazzam::content::builtin;
use fray_kazzam::{Kazzam, State};

fn new_match(game: &Kazzam, seed: u64, creeps: bool) -> (State, SeededDice) {
    let mut dice = SeededDice::new(seed);
    let options = fray_kazzam::engine::options::TableOptions { creeps, ..Default::default() };
    let state =
        game.start_from(builtin::default_setup(game.content(), options).unwrap(), &mut dice, &mut NullSink).unwrap();
    (state, dice)
}

/// The built-in match with every class and role power Fray plays given to every athlete (as
/// the all-powers random-play test does): the widest action menu there is.
fn every_power_match(game: &Kazzam, seed: u64) -> State {
    let all = game.content().powers().clone();
    let options = fray_kazzam::engine::options::TableOptions { creeps: true, ..Default::default() };
    let mut setup = builtin::default_setup(game.content(), options).unwrap();
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
    game.start_from(setup, &mut SeededDice::new(seed), &mut NullSink).unwrap()
}

fn play_out(game: &Kazzam, seed: u64, creeps: bool) -> usize {
    let (mut state, mut dice) = new_match(game, seed, creeps);
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
    let game = Kazzam::builtin();
    let mut seed = 0;
    c.bench_function("kazzam: one random-bot match (30 rounds, 3 v 3, two Creep groups)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(&game, seed, true))
        })
    });
    c.bench_function("kazzam: one random-bot match (30 rounds, 3 v 3, no Creeps)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_out(&game, seed, false))
        })
    });
    let (state, _) = new_match(&game, 7, true);
    let seat = game.node(&state).seats().first().unwrap();
    let mut legal = Vec::new();
    c.bench_function("kazzam: legal actions of the opening menu", |b| {
        b.iter(|| {
            legal.clear();
            game.legal(black_box(&state), seat, &mut legal);
            legal.len()
        })
    });
    c.bench_function("kazzam: the opening decision as a person sees it", |b| {
        b.iter(|| black_box(game.decision(&state, seat)))
    });
    let widest = every_power_match(&game, 7);
    let wseat = game.node(&widest).seats().first().unwrap();
    c.bench_function("kazzam: legal actions, every playable power on every athlete", |b| {
        b.iter(|| {
            legal.clear();
            game.legal(black_box(&widest), wseat, &mut legal);
            legal.len()
        })
    });
    c.bench_function("kazzam: state clone", |b| b.iter(|| black_box(state.clone())));
    c.bench_function("kazzam: view", |b| b.iter(|| black_box(game.view(&state, Viewer::Referee))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
