//! The engine kit for games that ask one question at a time: at any moment at most one seat is
//! asked, its [`Decision`] lists every option by id, and an answer is one option id. Panic at the
//! Dojo and Collision are built this way. The game gives the pending question and how an answer
//! plays out ([`OneQuestion`]); these functions give the [`Game`] methods that follow from them,
//! so each game's `impl Game` only forwards to them.

use crate::answer::{Answer, not_an_option};
use crate::decision::{Decision, DecisionOption};
use crate::dice::Dice;
use crate::game::{ActionId, Game, Node, Prompt, Seat, SeatSet, Sink};
use crate::ruleset::RuleError;

/// A game asked one question at a time.
pub trait OneQuestion: Game {
    /// The seats' names in index order; a [`Decision`]'s `seat` is one of them.
    const SIDES: &'static [&'static str];
    /// The pending question, or `None` once the match is over.
    fn question(&self, state: &Self::State) -> Option<Decision>;
    /// Plays the option `id` of the pending question.
    fn answer(
        &self,
        state: &mut Self::State,
        id: &str,
        dice: &mut dyn Dice,
        out: &mut dyn Sink<Self::Event>,
    ) -> Result<(), RuleError>;
}

/// The seat a question's `seat` names.
pub fn seat_of<G: OneQuestion>(name: &str) -> Seat {
    Seat(G::SIDES.iter().position(|s| *s == name).unwrap_or(0) as u8)
}

/// [`Game::node`]: the asked seat decides, without passing; no question is the end.
pub fn node<G: OneQuestion>(game: &G, state: &G::State) -> Node {
    match game.question(state) {
        Some(d) => Node::Decide { seats: SeatSet::one(seat_of::<G>(&d.seat)), passable: false },
        None => Node::Terminal,
    }
}

/// The question `seat` is asked, if it is the one asked.
pub fn decision<G: OneQuestion>(game: &G, state: &G::State, seat: Seat) -> Option<Decision> {
    game.question(state).filter(|d| seat_of::<G>(&d.seat) == seat)
}

/// [`Game::legal`]: the options of the question, by position.
pub fn legal<G: OneQuestion>(game: &G, state: &G::State, seat: Seat, out: &mut Vec<ActionId>) {
    if let Some(d) = decision(game, state, seat) {
        out.extend((0..d.options.len()).map(|i| Answer::Nth(i as u32).id()));
    }
}

/// [`Game::apply`]: plays the option at the action's position.
pub fn apply<G: OneQuestion>(
    game: &G,
    state: &mut G::State,
    action: ActionId,
    dice: &mut dyn Dice,
    out: &mut dyn Sink<G::Event>,
) -> Result<(), RuleError> {
    let Answer::Nth(i) = Answer::of(action) else { return Err(RuleError::malformed("not an option")) };
    let id = game
        .question(state)
        .and_then(|d| d.options.into_iter().nth(i as usize))
        .map(|o| o.id)
        .ok_or_else(|| RuleError::malformed("not an option now"))?;
    game.answer(state, &id, dice, out)
}

/// [`Game::act`] for a command naming who it is about (`who`: the unit asked, or the side when
/// the question is about no unit) and the option it picks. A command for someone not asked is
/// refused under `turn_rule` (the rule id saying whose turn it is); an option not offered is
/// malformed; a refused command changes nothing.
#[allow(clippy::too_many_arguments)]
pub fn act<G: OneQuestion>(
    game: &G,
    state: &mut G::State,
    seat: Seat,
    who: &str,
    choose: &str,
    turn_rule: &'static str,
    dice: &mut dyn Dice,
    out: &mut dyn Sink<G::Event>,
) -> Result<(), RuleError> {
    let d = game.question(state).ok_or_else(|| RuleError::malformed("nothing is pending: the match is over"))?;
    let asked = d.unit.clone().unwrap_or_else(|| d.seat.clone());
    if seat_of::<G>(&d.seat) != seat || asked != who {
        return Err(RuleError::refused(turn_rule, format!("{who} is not asked now ({} decision for {asked})", d.kind)));
    }
    if !d.allows(choose) {
        return Err(not_an_option(choose, &d.kind, d.options.iter().map(|o| o.id.as_str())));
    }
    let mut copy = state.clone();
    game.answer(&mut copy, choose, dice, out)?;
    *state = copy;
    Ok(())
}

/// [`Game::parse_choice`]: the position of the option `id` in the question `seat` is asked. One
/// look at the question (the trait's default describes every offered action in turn, each a
/// fresh look: too slow for questions of many options).
pub fn parse_choice<G: OneQuestion>(game: &G, state: &G::State, seat: Seat, id: &str) -> Result<ActionId, RuleError> {
    let Some(d) = decision(game, state, seat) else {
        return Err(match game.question(state) {
            None => RuleError::malformed("nothing is pending: the match is over"),
            Some(_) => RuleError::malformed("nothing is asked of this seat now"),
        });
    };
    match d.options.iter().position(|o| o.id == id) {
        Some(i) => Ok(Answer::Nth(i as u32).id()),
        None => Err(not_an_option(id, &d.kind, d.options.iter().map(|o| o.id.as_str()))),
    }
}

/// [`Game::describe`]: the option at the action's position.
pub fn describe<G: OneQuestion>(game: &G, state: &G::State, action: ActionId) -> DecisionOption {
    let found = match Answer::of(action) {
        Answer::Nth(i) => game.question(state).and_then(|d| d.options.into_iter().nth(i as usize)),
        _ => None,
    };
    found.unwrap_or_else(|| DecisionOption::new(format!("#{}", action.0), "not an option now"))
}

/// [`Game::prompt`]: the question `seat` is asked, without its options.
pub fn prompt<G: OneQuestion>(game: &G, state: &G::State, seat: Seat) -> Option<Prompt> {
    let d = decision(game, state, seat)?;
    Some(Prompt { unit: d.unit, kind: d.kind, text: d.prompt })
}

/// The command of a game asked one question at a time: who answers (the unit asked, or the side
/// when the question is about no unit) and the option id chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// The unit (or side) asked.
    pub unit: String,
    /// The option id.
    pub choose: String,
}
