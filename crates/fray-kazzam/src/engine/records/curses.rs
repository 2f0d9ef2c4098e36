//! Curse records; the rules are in [`crate::rules::curses`].

use crate::engine::ids::UnitIdx;
use crate::engine::records::statuses::Duration;
use serde::{Deserialize, Serialize};

/// A curse on the field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Curse {
    /// What sets it off.
    pub on: CurseOn,
    /// Who laid it.
    pub maker: UnitIdx,
    /// On whom.
    pub target: UnitIdx,
    /// The power, and the place of the `curse` primitive in its Effect line for the maker's
    /// level.
    pub power: u16,
    /// Which primitive.
    pub index: u8,
    /// How long it waits.
    pub duration: Duration,
    /// Left behind in this square when its target was Taken Out (Explosive Attachment): it
    /// fires there, no longer bound to a creature.
    pub at: Option<fray_core::grid::Pos>,
    /// A number it carries (Foresight's die, a Seeking Hex's damage); 0 otherwise.
    pub value: i32,
    /// The thing on the map that carries it out (a Seeking Hex).
    pub via: Option<UnitIdx>,
}

/// What sets a curse off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CurseOn {
    /// The target's next attack roll: its Effect applies if that roll misses; either way the
    /// curse is then over (Misfortune).
    NextAttackMisses,
    /// The target is Taken Out; its Effect applies to whoever Took it Out (Speak Doom).
    TakenOut,
    /// The curse's maker takes damage; its Effect applies to the target (Empathic Imposition).
    MakerDamaged,
    /// The target's next turn starts; its Effect applies to the target, once (Foreseen Attack).
    TurnStarts,
    /// The target first tries to move under its own power during its own turn; its Effect
    /// applies to the target, once (Voko's Lariat).
    Moves,
    /// The curse's maker ends the turn its duration names; its Effect applies to the target,
    /// once (Explosive Attachment).
    MakerTurnEnds,
    /// An enemy's attack hits the target; its Effect applies to that enemy, once (Ugnatio's
    /// Preservation Charm).
    TargetHit,
    /// The target is Taken Out by an enemy's attack or Opportunity; its Effect applies to that
    /// enemy (Death Ward, wards.rs).
    AttackTakesOut,
    /// The target takes damage, now (as the curse is laid) and each time after; its Effect
    /// applies to every athlete opposing the maker within 5 squares of the target, the target
    /// left out (Revealed Pain).
    TargetDamaged,
    /// The maker becomes Bloodied or drops to 0 HP; its Effect applies to the target (Linked
    /// Doom).
    MakerBloodied,
    /// Not an Effect line: the die rolled for the target, read as its first attack roll on
    /// its own turn (Foresight, divination.rs).
    ForeseenRoll,
    /// Not an Effect line: the target is the quarry of the Seeking Hex `via`, whose damage is
    /// `value` (divination.rs).
    Sought,
    /// Each of the maker's turns starts; its Effect applies to the target, every time, until the
    /// maker is Taken Out. Laid as the attack is made, whatever the roll (Favored Target).
    MakerTurnStarts,
    /// The target attacks a summoned creature or a Creep; its Effect applies to the target,
    /// once (Creature Aegis).
    AttacksSummonOrCreep,
    /// Not an Effect line: Empathic Bond between the maker and the target; `value` names who
    /// receives what is meant for either (0 each its own, 1 the maker, 2 the target; empathy.rs).
    Bonded,
}
