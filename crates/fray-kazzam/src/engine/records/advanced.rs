//! Advanced implement records (K-AIMP); the rules are in [`crate::implements::advanced`].

/// An advanced implement Fray plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advanced {
    /// Defender's Sword: Opportunities reach one square further, at 1 less damage there.
    DefendersSword,
    /// Duelling Sword: the sword's +1 even against a sword carrier.
    DuellingSword,
    /// Corkscrew Staff: a Miss Token to start with, and one more each time it is Taken Out.
    CorkscrewStaff,
    /// Nimble Staff: its implement attacks grant no Opportunities.
    NimbleStaff,
    /// Sniper's Staff: implement range +2.
    SnipersStaff,
    /// Spiked Staff: Basic Physical Attack +1 damage.
    SpikedStaff,
    /// Distracting Wand: the wand's protection from Opportunities without needing a hit.
    DistractingWand,
    /// Parrying Wand: sword users get no +1 against its carrier.
    ParryingWand,
    /// Piercing Wand: implement Effects go through a Ward that soaked everything, and emptying a
    /// Ward costs 1 more.
    PiercingWand,
    /// Wristwand: the wand takes no hand.
    Wristwand,
    /// Long Sword: implement reach +1, and melee across the air-ground line next to it.
    LongSword,
    /// Throwing Sword: implement attacks out to 5, thrown without the +1, Disarmed until the
    /// thrower's next turn.
    ThrowingSword,
    /// Charging Sword: any At-Will attack at the end of a Charge.
    ChargingSword,
    /// Multi-Sword: an implement attack on everyone in a 3x3 zone touching its square, 1 less.
    MultiSword,
    /// Multi-Staff: an implement attack on everyone in a 3x3 zone well away from it, 1 less.
    MultiStaff,
    /// Empowering Staff: its attacks' bursts and areas are 1 larger.
    EmpoweringStaff,
}
