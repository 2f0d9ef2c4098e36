//! What a half-resolved piece of the fight holds: the frames on the stack.

use crate::content::ActionKey;
use crate::content::{Choice, Effect};
use fray_core::grid::Pos;

/// A frame: one piece of the fight under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// Nothing under way: start a round, fill the next slot, or end the fight.
    Next,
    /// A side picks who fills its slot (D-INIT-2).
    Pick {
        /// The side.
        side: u8,
    },
    /// A unit picks its Stance for the turn (D-TURN-1).
    Stance {
        /// Who.
        u: u8,
    },
    /// The turn's start, after the Stance: effects before and after the roll.
    Start {
        /// Who.
        u: u8,
        /// How far it has got.
        stage: u8,
    },
    /// An out unit picks who takes its numbers (D-OUT-6).
    Spirit {
        /// The out unit.
        u: u8,
    },
    /// The turn's menu: spend a number, step, or end the turn.
    Act {
        /// Who acts (the taker of a Heroic Spirit turn acts for the slot's owner).
        u: u8,
        /// The unit whose slot it is.
        slot: u8,
    },
    /// An action resolving.
    Run(Box<Run>),
    /// A unit pushed over an Edge (beyond the map, D-GRID-2) may spend Speed to step back
    /// (D-OBS-2, D-MOVE-4); otherwise it is removed from play.
    Edge {
        /// Who.
        u: u8,
    },
    /// A unit removed from play may come back (D-OUT-4: at the end of a round, next to an
    /// Edge), or is put back by Rescue (D-BA-9: anywhere empty).
    Return {
        /// Who.
        u: u8,
        /// Rescue: any empty space, and no staying out.
        anywhere: bool,
    },
    /// A Wardancer raises numbers after rolling: `left` more picks; Focused may raise all by 1 or
    /// one by 4, Fused two by 2.
    Boost {
        /// Whose pool.
        u: u8,
        /// Picks left.
        left: u8,
        /// Focused (all +1 or one +4) rather than Fused (two +2).
        focused: bool,
    },
    /// Enemies of an action's user with Control tokens may cancel it (D-TOK-7): the action's
    /// run waits below.
    Control {
        /// Who takes the action.
        user: u8,
        /// The sides that let it happen (a bit each; in a three-way battle two sides may hold
        /// Control).
        passed: u8,
    },
    /// Three-way battles (D-CMP-4): a side attacked may spend a Favor token naming the
    /// attacker's side to turn it away for the rest of the turn; the action's run waits below.
    Favor {
        /// Who takes the action.
        user: u8,
        /// The sides that declined (a bit each).
        passed: u8,
    },
    /// A window for off-turn play (D-ACT-6, D-ACT-9, D-MOVE-4): at the start of a turn, after
    /// each of its actions and at its end, the units not acting may spend tokens on token
    /// actions (and at the start and end, Speed on Free Movement), side by side until both pass.
    Window {
        /// The unit whose turn it is.
        active: u8,
        /// 0 the start of the turn, 1 after an action, 2 the end.
        phase: u8,
        /// The sides that passed (a bit each) since the last off-turn play.
        passed: u8,
    },
    /// An amplified Action is over: the range and targets it had go (Amplify).
    AmplifyDone {
        /// Who.
        u: u8,
    },
    /// A Flashy unit has rolled: it may add two of its numbers into one.
    Flashy {
        /// Who.
        u: u8,
    },
    /// An Eye of the unit's turn starts: it picks a Bonus (L2941; never the Default, D-CW-3).
    Bonus {
        /// Who.
        u: u8,
    },
    /// A Spirit unit took a Free Movement step: it may move each of its Copies 1 (L2436), one
    /// at a time; `moved` holds the squares the moved ones went to.
    SpiritCopies {
        /// Who.
        u: u8,
        /// Where the Copies moved so far now stand.
        moved: Vec<fray_core::grid::Pos>,
    },
    /// An Action of `u`'s is over: what its Style does after each Action (Singing, Unbreakable).
    StyleAfterAction {
        /// Who acted.
        u: u8,
    },
    /// An action a unit took as if standing on one of its Copies is over (D-OBS-1, L9585): the
    /// unit goes back to its own square unless the action moved it.
    BackFromCopy {
        /// Who.
        u: u8,
    },
    /// A unit must spend the number `n` just put in its pool on an Action at once (Sing Along
    /// 6+).
    SpendNow {
        /// Who.
        u: u8,
        /// The number.
        n: i32,
        /// The unit the Action must be able to aim at (Counter Attack).
        aim: Option<u8>,
    },
    /// A Boss Archetype's play that asks as a turn ends (the Necromancer's and the Swarm's
    /// Copies; [`crate::bosses`] asks and answers it).
    Boss {
        /// Whose ability.
        u: u8,
        /// What is asked.
        step: BossStep,
    },
    /// The other Stooges of a group move, or a fresh one comes in (`stooge-figures`, D-EN-6,
    /// D-EN-8; [`crate::enemies`] asks and answers it).
    Stooges {
        /// The group.
        u: u8,
        /// What is asked.
        step: StoogeStep,
    },
    /// The turn's end, stage by stage (D-G-42 orders them).
    End {
        /// Who acted.
        u: u8,
        /// The unit whose slot it was.
        slot: u8,
        /// How far it has got.
        stage: u8,
    },
}

/// A Boss Archetype's question under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BossStep {
    /// The Necromancer puts a Copy on an empty square it sees, at any distance.
    Raise,
    /// Each Copy in `left` may step 1, the first one now; then, with `hit`, each of the unit's
    /// Copies hits an enemy next to it for 1 (the Necromancer).
    CopySteps {
        /// The squares of the Copies still to step.
        left: Vec<Pos>,
        /// The Necromancer's hits follow.
        hit: bool,
    },
    /// The Swarm's picks: one for each Copy it had as the turn ended, `left` still to make.
    Swarm {
        /// Picks left.
        left: u8,
    },
}

/// A Stooge group's question under way (`stooge-figures`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoogeStep {
    /// Each Stooge in `left` may move up to `n` spaces, one after another; the first has `k`
    /// steps left (D-EN-6).
    Move {
        /// The squares of the Stooges still to move, the one moving first.
        left: Vec<Pos>,
        /// Spaces each may move.
        n: i32,
        /// Spaces the first may still move.
        k: i32,
    },
    /// Reinforcements puts a fresh Stooge anywhere in play (D-EN-8).
    Fresh,
    /// Endless Stooges (D-OPT-4): `left` fresh Stooges still to come in as the turn starts,
    /// then the group heals.
    Endless {
        /// Stooges still to place.
        left: i32,
    },
}

/// Where an action resolving stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Do the next effect.
    Ready,
    /// Pick the options of a choice (D-ACT-3).
    Choose,
    /// Pick the effect's target.
    Target,
    /// The target decides how many Iron tokens to spend (D-TOK-1).
    Iron {
        /// The target.
        t: u8,
    },
    /// The user decides how many Power tokens to pour into a hit (D-TOK-2).
    Power {
        /// The target.
        t: u8,
        /// Most tokens it may spend.
        max: i32,
    },
    /// A push or pull, space by space (D-FMV-1).
    Forced {
        /// Who is moved.
        mover: u8,
        /// Where the pusher or puller stands.
        origin: Pos,
        /// Spaces left.
        left: i32,
        /// Push (farther) or pull (closer).
        push: bool,
    },
    /// A square for the effect (teleport, place, destroy).
    Square,
    /// A move of up to `left` spaces, step by step (D-FMV-5).
    Steps {
        /// Spaces left.
        left: i32,
    },
    /// Tokens to take from the target, one at a time (D-BA-7).
    TokenPick {
        /// Left to take.
        left: i32,
    },
    /// The user keeps its old Shield or the new one (D-HP-6).
    Shield {
        /// The new Shield's points.
        new: i32,
    },
    /// The target keeps the Challenge it holds or the new one (D-TOK-4).
    KeepChallenge,
    /// The user picks which Basic tokens pay the cost, one at a time (D-ACT-6).
    PayBasic {
        /// Left to pay.
        left: u32,
    },
    /// The user moves another unit, step by step (Pull The Strings).
    Shift {
        /// Who is moved.
        mover: u8,
        /// Spaces left.
        left: i32,
    },
    /// The user decides how many picks of a choice to buy with Basic tokens (Roughhousing).
    Buy,
    /// The user picks the kinds of Basic tokens it gains, one at a time.
    GainPick {
        /// Left to pick.
        left: i32,
    },
    /// The user may give the effect under way more targets (Blaster, Amplify; D-CLAR-1).
    More,
}

/// A choice under way (D-ACT-3): its options, how many to pick, those picked (by place), and
/// what follows the picks.
pub type Picking = (Vec<Choice>, u8, Vec<u8>, Vec<Effect>);

/// An action resolving: its effects, done in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Who takes it.
    pub user: u8,
    /// Which action.
    pub key: ActionKey,
    /// The number spent (X), or 0.
    pub x: i32,
    /// The effects, in order.
    pub ops: Vec<Effect>,
    /// The next effect.
    pub i: usize,
    /// Where it stands.
    pub stage: Stage,
    /// The current effect's target, once picked.
    pub tgt: Option<u8>,
    /// Targets still to take the current effect (every enemy in range...), once listed.
    pub multi: Option<Vec<u8>>,
    /// The last target picked (for `same`).
    pub current: Option<u8>,
    /// Every target picked so far.
    pub picked: Vec<u8>,
    /// Iron spent by each target: (target, damage cut left, movement cut left).
    pub iron: Vec<(u8, i32, i32)>,
    /// The damage of the hit under way, before Power.
    pub hit: i32,
    /// Power poured into the hit under way.
    pub power: i32,
    /// Enemies One-Two has struck again.
    pub extra: Vec<u8>,
    /// A choice still to make.
    pub choice: Option<Picking>,
    /// A unit whose turn end runs this (no action, no number).
    pub quiet: bool,
    /// The square this action marked or broke last (Trick Shot, Roughhousing).
    pub spot: Option<Pos>,
    /// The squares this action put obstacles on (Darkness Dawns).
    pub placed: Vec<Pos>,
    /// Countered by an Untouchable (Boss Archetypes): each hit lands on the user too.
    pub countered: bool,
    /// More targets (or obstacles) the action may still take (Blaster 1, Amplify 3; D-CLAR-1).
    pub more: u8,
    /// Whether the effect under way has been offered its further targets.
    pub more_asked: bool,
    /// Whether the square asked now is a further obstacle (it may be passed up).
    pub bonus_place: bool,
    /// Taken over with two Control tokens by this unit (D-TOK-7, D-CLAR-6): it makes the
    /// action's decisions, and its picks are among that unit's enemies and allies.
    pub by: Option<u8>,
    /// A move that must be made while a square is open (Akimbo's, L2239).
    pub compulsory: bool,
}

impl Run {
    /// An action's run.
    pub fn new(user: u8, key: ActionKey, x: i32, ops: Vec<Effect>) -> Self {
        Run {
            user,
            key,
            x,
            ops,
            i: 0,
            stage: Stage::Ready,
            tgt: None,
            multi: None,
            current: None,
            picked: Vec::new(),
            iron: Vec::new(),
            hit: 0,
            power: 0,
            extra: Vec::new(),
            choice: None,
            quiet: false,
            spot: None,
            placed: Vec::new(),
            countered: false,
            more: 0,
            more_asked: false,
            bonus_place: false,
            by: None,
            compulsory: false,
        }
    }
}
