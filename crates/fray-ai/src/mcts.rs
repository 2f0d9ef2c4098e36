//! Open-loop Monte Carlo tree search over whole choices.
//!
//! The tree's edges are *completions* ([`crate::greedy`]): a way through a menu down to an
//! action that does something, so one edge is one real choice (move there, attack that one,
//! end the turn), whoever makes it. A node is a path of such choices from the decision being
//! made, not a state: every iteration replays its path from a clone of the real state with dice
//! of its own, so an edge learns what a choice is worth over the rolls it may meet (open loop).
//!
//! An iteration walks down by PUCT (each edge's mean score for the seat that chooses there,
//! rescaled to [0, 1] by the lowest and highest scores seen, plus exploration in proportion to
//! the edge's prior), and expands the node where it leaves the tree: it lists that seat's
//! completions, each scored by [`Game::evaluate`] after one sample of the dice. Those scores
//! are the new edges' priors (a softmax) and first values; the iteration then plays the best of
//! them and scores the state for every seat (the match's result if it ended). The answer is
//! the most visited edge at the root, whose steps the bot then plays one decision after
//! another.
//!
//! Root parallelism: with `trees` above 1, that many trees search on separate threads with
//! seeds of their own, and their root visits are summed. For the same seed, settings and
//! iteration budget the answer is always the same; a time budget depends on the machine.

use crate::greedy::{Completion, completions, follow};
use crate::{Bot, forward};
use fray_core::dice::SeededDice;
use fray_core::game::{ActionId, Game, Node, NullSink, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How the search spends its budget.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSettings {
    /// Iterations a decision (over all trees); each expands one node.
    pub iterations: u32,
    /// Or: time a decision, in milliseconds (overrides `iterations`).
    pub millis: Option<u64>,
    /// Random actions played past the tree before the evaluation scores the state.
    pub rollout: u32,
    /// PUCT's exploration constant.
    pub exploration: f64,
    /// Trees searched in parallel, each on its own thread.
    pub trees: u32,
}

impl Default for MctsSettings {
    fn default() -> Self {
        MctsSettings { iterations: 48, millis: None, rollout: 0, exploration: 1.0, trees: 1 }
    }
}

/// What a search did, for benchmarks.
#[derive(Clone, Copy, Debug, Default)]
pub struct MctsStats {
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes made.
    pub nodes: u64,
    /// Actions applied (menu steps included), over all iterations.
    pub actions: u64,
}

/// A choice at the root after a search: its steps, visits and summed score.
pub type RootEdge = (Vec<ActionId>, u32, f64);

/// Softmax temperature of the priors, in evaluation units.
const TEMPERATURE: f64 = 0.02;

struct Edge {
    path: Vec<ActionId>,
    prior: f64,
    first: f64,
    visits: u32,
    total: f64,
    child: Option<u32>,
}

struct TreeNode {
    /// The seat that chooses here.
    seat: Seat,
    visits: u32,
    edges: Option<Vec<Edge>>,
}

/// Monte Carlo tree search (see the module).
#[derive(Clone, Debug)]
pub struct Mcts {
    /// Its settings.
    pub settings: MctsSettings,
    rng: ChaCha8Rng,
    plan: Vec<ActionId>,
    /// What the last search did.
    pub last: MctsStats,
}

impl Mcts {
    /// A search bot with these settings and its own seed.
    pub fn new(settings: MctsSettings, seed: u64) -> Self {
        Mcts { settings, rng: ChaCha8Rng::seed_from_u64(seed), plan: Vec::new(), last: MctsStats::default() }
    }

    /// Searches from `state` for `seat`: each root completion with its visits.
    pub fn search<G: Game>(&mut self, game: &G, state: &G::State, seat: Seat) -> Vec<RootEdge> {
        let trees = self.settings.trees.max(1);
        let seeds: Vec<u64> = (0..trees).map(|_| self.rng.r#gen()).collect();
        let per_tree = self.settings.iterations.div_ceil(trees).max(1);
        let deadline = self.settings.millis.map(|ms| Instant::now() + Duration::from_millis(ms));
        let settings = &self.settings;
        let run = |seed: u64| grow(game, state, seat, settings, seed, per_tree, deadline);
        let results: Vec<(Vec<RootEdge>, MctsStats)> = if trees == 1 {
            vec![run(seeds[0])]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = seeds.iter().map(|&s| scope.spawn(move || run(s))).collect();
                handles.into_iter().map(|h| h.join().expect("a search thread panicked")).collect()
            })
        };
        self.last = MctsStats::default();
        let mut merged: Vec<RootEdge> = Vec::new();
        for (edges, stats) in results {
            self.last.iterations += stats.iterations;
            self.last.nodes += stats.nodes;
            self.last.actions += stats.actions;
            for (path, n, total) in edges {
                match merged.iter_mut().find(|m| m.0 == path) {
                    Some(m) => {
                        m.1 += n;
                        m.2 += total;
                    }
                    None => merged.push((path, n, total)),
                }
            }
        }
        merged
    }
}

/// Scores every seat of `state`, keeping the lowest and highest seen.
fn score_all<G: Game>(game: &G, state: &G::State, scores: &mut [f64], range: &mut (f64, f64)) {
    for (i, s) in scores.iter_mut().enumerate() {
        *s = game.evaluate(state, Seat(i as u8));
        range.0 = range.0.min(*s);
        range.1 = range.1.max(*s);
    }
}

/// Applies `path` for `seat` while each step is offered; false if one is not (this
/// iteration's dice led elsewhere) or is refused.
fn play_path<G: Game>(
    game: &G,
    state: &mut G::State,
    seat: Seat,
    path: &[ActionId],
    dice: &mut SeededDice,
    legal: &mut Vec<ActionId>,
    actions: &mut u64,
) -> bool {
    for (i, &a) in path.iter().enumerate() {
        if i > 0 {
            legal.clear();
            game.legal(state, seat, legal);
            if !legal.contains(&a) {
                return false;
            }
        }
        *actions += 1;
        if game.apply(state, seat, a, dice, &mut NullSink).is_err() {
            return false;
        }
    }
    true
}

/// One tree's search.
fn grow<G: Game>(
    game: &G,
    root: &G::State,
    seat: Seat,
    settings: &MctsSettings,
    seed: u64,
    iterations: u32,
    deadline: Option<Instant>,
) -> (Vec<RootEdge>, MctsStats) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = vec![TreeNode { seat, visits: 0, edges: None }];
    let seats = game.seats(root).len();
    let mut scores = vec![0.0; seats];
    let mut range = (f64::INFINITY, f64::NEG_INFINITY);
    let mut legal: Vec<ActionId> = Vec::new();
    let mut stack: Vec<(u32, usize)> = Vec::with_capacity(32);
    let mut stats = MctsStats::default();
    let mut found: Vec<Completion> = Vec::new();
    loop {
        let out_of_budget = match deadline {
            Some(d) => stats.iterations > 0 && Instant::now() >= d,
            None => stats.iterations >= u64::from(iterations),
        };
        if out_of_budget {
            break;
        }
        stats.iterations += 1;
        let mut state = root.clone();
        let mut dice = SeededDice::new(rng.r#gen());
        stack.clear();
        let mut node = 0u32;
        while let Node::Decide { seats: asked, .. } = game.node(&state) {
            let Some(who) = asked.first() else { break };
            let n = &mut nodes[node as usize];
            n.seat = who;
            if n.edges.is_none() {
                // Expansion: this seat's completions, scored after one roll of the dice.
                found.clear();
                completions(game, &state, who, &mut rng, 1, &mut found);
                stats.actions += found.len() as u64;
                if found.is_empty() {
                    break;
                }
                let top = found.iter().map(|c| c.value).fold(f64::NEG_INFINITY, f64::max);
                let weights: Vec<f64> = found.iter().map(|c| ((c.value - top) / TEMPERATURE).exp()).collect();
                let sum: f64 = weights.iter().sum();
                for c in &found {
                    range.0 = range.0.min(c.value);
                    range.1 = range.1.max(c.value);
                }
                let edges: Vec<Edge> = found
                    .iter()
                    .zip(&weights)
                    .map(|(c, w)| Edge {
                        path: c.path.clone(),
                        prior: w / sum,
                        first: c.value,
                        visits: 0,
                        total: 0.0,
                        child: None,
                    })
                    .collect();
                // Play the best of them, then score.
                let best = (0..edges.len()).max_by(|&a, &b| edges[a].first.total_cmp(&edges[b].first)).unwrap_or(0);
                nodes[node as usize].edges = Some(edges);
                stack.push((node, best));
                let path = nodes[node as usize].edges.as_ref().map(|e| e[best].path.clone()).unwrap_or_default();
                play_path(game, &mut state, who, &path, &mut dice, &mut legal, &mut stats.actions);
                break;
            }
            // Selection by PUCT among the edges whose first step is offered now.
            legal.clear();
            game.legal(&state, who, &mut legal);
            let span = if range.1 > range.0 { range.1 - range.0 } else { 1.0 };
            let sqrt_n = f64::from(n.visits.max(1)).sqrt();
            let edges = n.edges.as_ref().expect("expanded");
            let mut best = (f64::NEG_INFINITY, usize::MAX);
            for (i, e) in edges.iter().enumerate() {
                if !legal.contains(&e.path[0]) {
                    continue;
                }
                let q = if e.visits > 0 { e.total / f64::from(e.visits) } else { e.first };
                let u = (q - range.0) / span + settings.exploration * e.prior * sqrt_n / (1.0 + f64::from(e.visits));
                if u > best.0 {
                    best = (u, i);
                }
            }
            if best.1 == usize::MAX {
                break;
            }
            let i = best.1;
            stack.push((node, i));
            let path = edges[i].path.clone();
            if !play_path(game, &mut state, who, &path, &mut dice, &mut legal, &mut stats.actions) {
                break;
            }
            node = match nodes[node as usize].edges.as_ref().and_then(|e| e[i].child) {
                Some(c) => c,
                None => {
                    let c = nodes.len() as u32;
                    nodes.push(TreeNode { seat: who, visits: 0, edges: None });
                    if let Some(e) = nodes[node as usize].edges.as_mut() {
                        e[i].child = Some(c);
                    }
                    c
                }
            };
        }
        // A few random actions past the tree, if asked for.
        let mut steps = 0;
        while steps < settings.rollout {
            let Node::Decide { seats: asked, .. } = game.node(&state) else { break };
            let Some(who) = asked.first() else { break };
            legal.clear();
            game.legal(&state, who, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = fray_core::conformance::random_pick(&mut rng, &legal);
            stats.actions += 1;
            if game.apply(&mut state, who, a, &mut dice, &mut NullSink).is_err() {
                break;
            }
            steps += 1;
        }
        score_all(game, &state, &mut scores, &mut range);
        for &(n, i) in &stack {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            let s = scores.get(node.seat.index()).copied().unwrap_or(0.0);
            if let Some(e) = node.edges.as_mut().and_then(|e| e.get_mut(i)) {
                e.visits += 1;
                e.total += s;
            }
        }
    }
    stats.nodes = nodes.len() as u64;
    let root = nodes[0].edges.take().unwrap_or_default();
    (root.into_iter().map(|e| (e.path, e.visits, e.total + if e.visits == 0 { e.first } else { 0.0 })).collect(), stats)
}

impl<G: Game> Bot<G> for Mcts {
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat, legal: &[ActionId]) -> ActionId {
        if let Some(a) = follow(&mut self.plan, legal) {
            return a;
        }
        let options: Vec<ActionId> = forward(legal).collect();
        if options.len() == 1 {
            return options[0];
        }
        let edges = self.search(game, state, seat);
        // The most visited, then the best mean.
        let best = edges
            .iter()
            .filter(|e| !e.0.is_empty() && legal.contains(&e.0[0]))
            .max_by(|a, b| a.1.cmp(&b.1).then((a.2 / f64::from(a.1.max(1))).total_cmp(&(b.2 / f64::from(b.1.max(1))))));
        match best {
            Some((path, _, _)) => {
                self.plan = path[1..].to_vec();
                path[0]
            }
            None => options[0],
        }
    }
}
