//! Greedy play: one whole choice ahead by the system's evaluation.
//!
//! A system's menus ask a choice in steps (an action, then its target, then a square); the
//! steps before the last change nothing in the match. So for each legal action the bot follows
//! the steps it opens, while they change nothing and the same seat is asked, down to every
//! action that does something: each such path is one *completion*, scored by
//! [`Game::evaluate`] for its seat. A completion that rolls dice is scored by the mean over
//! several samples of the bot's own dice (it cannot see the match's). The bot takes the best
//! completion and plays its steps one decision after another.

use crate::{Bot, forward};
use fray_core::dice::{Dice, DiceError, SeededDice};
use fray_core::game::{ActionId, Game, Node, Seat, Sink};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How many menu steps deep a completion may go before it must have done something.
const MAX_STEPS: usize = 4;
/// How many completions are scored for one decision at most; past that, the rest are scored
/// where they stand.
const MAX_LEAVES: usize = 3000;

/// Counts what an action did: the events it emitted.
#[derive(Default)]
pub(crate) struct CountEvents(pub usize);

impl<E> Sink<E> for CountEvents {
    fn push(&mut self, _event: E) {
        self.0 += 1;
    }
    fn keeps(&self) -> bool {
        false
    }
}

/// The bot's own dice, counting the rolls an action made.
pub(crate) struct CountRolls {
    pub dice: SeededDice,
    pub rolls: usize,
}

impl Dice for CountRolls {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.rolls += 1;
        self.dice.roll(sides)
    }
}

/// A way through a menu down to an action that does something, and its score.
#[derive(Clone, Debug)]
pub(crate) struct Completion {
    /// The actions, in order.
    pub path: Vec<ActionId>,
    /// The chooser's evaluation after them (a mean over samples where dice are rolled).
    pub value: f64,
}

/// Every completion of `seat`'s choice in `state` (see the module); `samples` dice samples for
/// one that rolls.
pub(crate) fn completions<G: Game>(
    game: &G,
    state: &G::State,
    seat: Seat,
    rng: &mut ChaCha8Rng,
    samples: u32,
    out: &mut Vec<Completion>,
) {
    let mut legal = Vec::new();
    game.legal(state, seat, &mut legal);
    let mut path = Vec::with_capacity(MAX_STEPS + 1);
    let mut leaves = 0;
    walk(game, state, seat, &legal, rng, samples, &mut path, &mut leaves, out);
}

#[allow(clippy::too_many_arguments)]
fn walk<G: Game>(
    game: &G,
    state: &G::State,
    seat: Seat,
    legal: &[ActionId],
    rng: &mut ChaCha8Rng,
    samples: u32,
    path: &mut Vec<ActionId>,
    leaves: &mut usize,
    out: &mut Vec<Completion>,
) {
    let options: Vec<ActionId> = forward(legal).collect();
    for a in options {
        if a == ActionId::BACK && !path.is_empty() {
            continue;
        }
        path.push(a);
        let mut total = 0.0;
        let mut taken = 0;
        loop {
            let mut next = state.clone();
            let mut dice = CountRolls { dice: SeededDice::new(rng.r#gen()), rolls: 0 };
            let mut events = CountEvents::default();
            if game.apply(&mut next, seat, a, &mut dice, &mut events).is_err() {
                break;
            }
            *leaves += 1;
            let quiet = events.0 == 0 && dice.rolls == 0;
            let same_seat = matches!(game.node(&next), Node::Decide { seats, .. } if seats.first() == Some(seat));
            if quiet && same_seat && path.len() < MAX_STEPS && *leaves < MAX_LEAVES {
                // A menu step: what it leads to is worth its completions.
                let mut legal = Vec::new();
                game.legal(&next, seat, &mut legal);
                let before = out.len();
                walk(game, &next, seat, &legal, rng, samples, path, leaves, out);
                if out.len() == before {
                    out.push(Completion { path: path.clone(), value: game.evaluate(&next, seat) });
                }
                break;
            }
            total += game.evaluate(&next, seat);
            taken += 1;
            if dice.rolls == 0 || taken >= samples {
                out.push(Completion { path: path.clone(), value: total / f64::from(taken) });
                break;
            }
        }
        path.pop();
    }
}

/// One whole choice ahead by the system's evaluation (see the module).
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: ChaCha8Rng,
    /// Dice samples an action that rolls is scored over.
    pub samples: u32,
    /// The rest of the completion being played.
    plan: Vec<ActionId>,
}

impl Greedy {
    /// A greedy bot with its own seed (for its sampled dice and its tie-breaks).
    pub fn new(seed: u64) -> Self {
        Greedy { rng: ChaCha8Rng::seed_from_u64(seed), samples: 4, plan: Vec::new() }
    }
}

/// Takes the next step of `plan` if it is offered now; otherwise drops the plan.
pub(crate) fn follow(plan: &mut Vec<ActionId>, legal: &[ActionId]) -> Option<ActionId> {
    if plan.is_empty() {
        return None;
    }
    let next = plan.remove(0);
    if legal.contains(&next) {
        return Some(next);
    }
    plan.clear();
    None
}

impl<G: Game> Bot<G> for Greedy {
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat, legal: &[ActionId]) -> ActionId {
        if let Some(a) = follow(&mut self.plan, legal) {
            return a;
        }
        let candidates: Vec<ActionId> = forward(legal).collect();
        if candidates.len() == 1 {
            return candidates[0];
        }
        let mut all = Vec::new();
        completions(game, state, seat, &mut self.rng, self.samples, &mut all);
        let mut best: Option<&Completion> = None;
        let mut ties = 0u32;
        for c in &all {
            match best {
                Some(b) if c.value > b.value + 1e-9 => {
                    best = Some(c);
                    ties = 1;
                }
                Some(b) if (c.value - b.value).abs() <= 1e-9 => {
                    // Among equals, each is as likely (reservoir sampling).
                    ties += 1;
                    if self.rng.gen_range(0..ties) == 0 {
                        best = Some(c);
                    }
                }
                Some(_) => {}
                None => {
                    best = Some(c);
                    ties = 1;
                }
            }
        }
        match best {
            Some(c) if !c.path.is_empty() => {
                self.plan = c.path[1..].to_vec();
                c.path[0]
            }
            _ => candidates[0],
        }
    }
}
