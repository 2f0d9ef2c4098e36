//! The engine kit: the scaffolding every system's rules run on, so a system writes only its
//! rules.
//!
//! A match in progress is a stack of half-resolved pieces ("frames": a turn waiting for its
//! next action, an attack waiting for a target, a push waiting for a square). The [`run`] loop
//! pops the top frame and advances it ([`Resolve::step`]); a frame that needs an answer pushes
//! itself back and the loop stops ([`Flow::Wait`]): the top frame's [`Resolve::question`] is the
//! pending [`Decision`], and [`answer`] resumes it. Something that must resolve first (an
//! interrupt, a push an attack sets off) is pushed above what it interrupts.
//!
//! While rules resolve they hold a [`Ctx`]: the state, the dice and the journal. The only way
//! they change game-visible state is [`Ctx::emit`], which applies an event through the state's
//! [`Apply`] and then writes it to the journal, so replaying the journal replays the match.
//!
//! The rest of the kit is vocabulary systems share: [`Who`] (a unit named in an event),
//! [`duration`] (how long a status lasts, typed and parsed once) and [`forced`] (which steps a
//! push, a pull or a slide may take). Turn orders are in [`crate::turns`], dice pools in
//! [`crate::dice`].

pub mod duration;
pub mod forced;
mod who;

pub use duration::{Duration, Lasts, NoDuration, Whose};
pub use forced::Forced;
pub use who::Who;

use crate::decision::Decision;
use crate::dice::{Dice, DiceError};
use crate::game::Sink;
use crate::ruleset::RuleError;

/// A state that events change: the one place game-visible state changes.
pub trait Apply<E> {
    /// Applies `event` to the state.
    fn apply(&mut self, event: &E);
}

/// A state that holds a stack of frames (half-resolved pieces of the match), top last.
pub trait Stack {
    /// The system's frame type.
    type Frame;
    /// The frames, bottom first.
    fn frames(&self) -> &[Self::Frame];
    /// The frames, to change.
    fn frames_mut(&mut self) -> &mut Vec<Self::Frame>;
}

/// What advancing a frame led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going: advance the next frame.
    Continue,
    /// Stop: the top frame waits for an answer.
    Wait,
}

/// The state, the dice and the journal while rules resolve.
pub struct Ctx<'a, S, E> {
    /// The state.
    pub s: &'a mut S,
    /// The dice.
    pub dice: &'a mut dyn Dice,
    /// Where the events go: the journal, or nowhere (search).
    pub log: &'a mut dyn Sink<E>,
}

impl<'a, S, E> Ctx<'a, S, E> {
    /// A context over `s`, rolling `dice`, writing to `log`.
    pub fn new(s: &'a mut S, dice: &'a mut dyn Dice, log: &'a mut dyn Sink<E>) -> Self {
        Ctx { s, dice, log }
    }
    /// Whether the journal keeps events: rules may skip building prose-only events when not.
    pub fn keeps(&self) -> bool {
        self.log.keeps()
    }
    /// Rolls one die of `sides` faces.
    pub fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.dice.roll(sides)
    }
}

impl<S: Apply<E>, E> Ctx<'_, S, E> {
    /// Applies `event` to the state, then writes it to the journal.
    pub fn emit(&mut self, event: E) {
        self.s.apply(&event);
        self.log.push(event);
    }
}

impl<S: Stack, E> Ctx<'_, S, E> {
    /// Pushes a frame: it resolves before everything below it.
    pub fn push(&mut self, frame: S::Frame) {
        self.s.frames_mut().push(frame);
    }
    /// Takes the top frame off the stack.
    pub fn pop(&mut self) -> Option<S::Frame> {
        self.s.frames_mut().pop()
    }
    /// The top frame.
    pub fn top(&self) -> Option<&S::Frame> {
        self.s.frames().last()
    }
    /// Puts `frame` back on top to wait for an answer: what a [`Resolve::step`] returns when
    /// its frame asks something.
    pub fn wait(&mut self, frame: S::Frame) -> Flow {
        self.push(frame);
        Flow::Wait
    }
}

/// A system's state as the [`run`] loop drives it: when the match is over, what starts when
/// nothing is in progress, and the checks a system makes around every step.
pub trait Machine: Stack + Apply<Self::Event> + Sized {
    /// The system's journal entry.
    type Event;
    /// Whether the match is over (the loop then clears the stack and stops).
    fn over(&self) -> bool;
    /// The frame pushed when the stack is empty (the next turn, the next pick).
    fn idle(&self) -> Self::Frame;
    /// Runs before every step, before the end check: a rule that may end the match at once
    /// (a side conceding) or scratch records a step starts afresh.
    fn before_step(_cx: &mut Ctx<'_, Self, Self::Event>) -> Result<(), RuleError> {
        Ok(())
    }
    /// Runs after every step, before the loop stops to wait: watches that react to whatever
    /// the step did (a chant's target gone too far, an orb picked up).
    fn after_step(_cx: &mut Ctx<'_, Self, Self::Event>) -> Result<(), RuleError> {
        Ok(())
    }
}

/// A system's frame: how it advances, what it asks, how it takes an answer. Implemented by the
/// system's frame enum, usually as one `match` handing each kind to its rule module.
pub trait Resolve<S: Machine>: Sized {
    /// Advances the frame, just taken off the stack. A frame that has more to do pushes itself
    /// (or what follows) back; one that waits for an answer returns [`Ctx::wait`]`(self)`.
    fn step(self, cx: &mut Ctx<'_, S, S::Event>) -> Result<Flow, RuleError>;
    /// The question the frame puts while it is on top of the stack, or `None` if it asks
    /// nothing.
    fn question(&self, s: &S) -> Option<Decision>;
    /// Takes `option`, an answer to [`Resolve::question`], for the frame just taken off the
    /// stack. The caller has checked that it is offered (the [`crate::session::Session`]
    /// does). A frame that asks nothing puts itself back and refuses.
    fn answer(self, cx: &mut Ctx<'_, S, S::Event>, option: &str) -> Result<(), RuleError>;
}

/// Runs the match until the top frame waits for an answer or the match is over.
pub fn run<S>(cx: &mut Ctx<'_, S, S::Event>) -> Result<(), RuleError>
where
    S: Machine,
    S::Frame: Resolve<S>,
{
    loop {
        S::before_step(cx)?;
        if cx.s.over() {
            cx.s.frames_mut().clear();
            return Ok(());
        }
        let Some(frame) = cx.pop() else {
            let idle = cx.s.idle();
            cx.push(idle);
            continue;
        };
        let flow = frame.step(cx)?;
        S::after_step(cx)?;
        if flow == Flow::Wait {
            return Ok(());
        }
    }
}

/// The pending decision: the top frame's question, unless the match is over.
pub fn decision<S>(s: &S) -> Option<Decision>
where
    S: Machine,
    S::Frame: Resolve<S>,
{
    if s.over() {
        return None;
    }
    s.frames().last()?.question(s)
}

/// Answers the pending decision with `option` (one [`decision`] offers: the caller checks),
/// then runs on to the next decision.
pub fn answer<S>(cx: &mut Ctx<'_, S, S::Event>, option: &str) -> Result<(), RuleError>
where
    S: Machine,
    S::Frame: Resolve<S>,
{
    let Some(frame) = cx.pop() else {
        return Err(RuleError::malformed("nothing is pending"));
    };
    frame.answer(cx, option)?;
    run(cx)
}
