//! Frames of the classes and class features.

use crate::engine::ids::UnitIdx;
use fray_core::grid::Pos;
use serde::Serialize;

/// A feature's question, waiting on the resolution stack.
#[derive(Clone, Debug)]
pub enum FeatureFrame {
    /// Change Spell, or the choice on respawning (L1058-1060): which learned Blade Enchantment or
    /// Self-Charm goes in force in place of one that is.
    ChangeSpell {
        /// The Shivering Sword.
        unit: UnitIdx,
        /// On respawning: any number of groups may change, and `keep` ends the choice.
        respawn: bool,
        /// Groups (bits, by index in [`SWAPPABLE`]) already changed this time.
        done: u8,
    },
    /// Scryer: as the Diviner's turn ends, whom to Lock On to.
    LockOn {
        /// The Diviner.
        unit: UnitIdx,
    },
    /// Directional Shield: which way the Shivering Sword faces this turn.
    Shield {
        /// The Shivering Sword.
        unit: UnitIdx,
    },
    /// Improved Scryer: which teammate shares the lock.
    ShareLock {
        /// The Diviner.
        unit: UnitIdx,
    },
    /// Capacitive Ward: spend Charge Tokens for 1 more damage on this hit?
    Capacitive {
        /// The Wardmaster.
        unit: UnitIdx,
    },
    /// Seer: foresee a die for this round, or not.
    Foresee {
        /// The Diviner.
        unit: UnitIdx,
    },
    /// Improved Seer: foresee a die for the team this round, or not.
    TeamForesee {
        /// The Diviner.
        unit: UnitIdx,
    },
    /// Special Ward: the Wardmaster picks who gains it as its turn ends.
    SpecialWard {
        /// The Wardmaster.
        unit: UnitIdx,
    },
    /// Status-Thief: move one status between the Shivering Sword and the creature it hit.
    StatusThief {
        /// The Shivering Sword.
        unit: UnitIdx,
        /// The creature hit.
        target: UnitIdx,
    },
    /// Guardless Blade: take 2 unresisted damage to deal 2 to the enemy that just damaged you.
    GuardlessBack {
        /// The Shivering Sword.
        unit: UnitIdx,
        /// The enemy.
        enemy: UnitIdx,
    },
    /// Guardless Blade: after a melee hit, take 2 unresisted damage to deal 2 to another enemy in
    /// reach.
    GuardlessSweep {
        /// The Shivering Sword.
        unit: UnitIdx,
        /// The enemy just hit (not a choice).
        hit: UnitIdx,
    },
    /// Portal Brawler: swap squares with the enemy just hit, or not.
    Swap {
        /// The Porter.
        unit: UnitIdx,
        /// The enemy hit.
        target: UnitIdx,
    },
}

/// A decision in the middle of a charm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CharmFrame {
    /// A 3: which effect.
    Pick {
        /// The Charmer.
        user: UnitIdx,
        /// The charmed creature.
        target: UnitIdx,
        /// The charm.
        power: u16,
    },
    /// Staff, 4 or better: who receives Effect 2 (the target, or another creature in range).
    Split {
        /// The Charmer.
        user: UnitIdx,
        /// The charmed creature.
        target: UnitIdx,
        /// The charm.
        power: u16,
    },
    /// Sword: Effect 2 on the wielder too?
    SwordSelf {
        /// The Charmer.
        user: UnitIdx,
        /// The charm.
        power: u16,
    },
    /// Status Exchange: whom to trade with, then what goes each way.
    Exchange {
        /// The Charmer.
        user: UnitIdx,
        /// The attack's target.
        target: UnitIdx,
        /// The power.
        power: u16,
        /// The Charmer or the ally chosen, once chosen.
        other: Option<UnitIdx>,
        /// The target's status going over (`Some(None)`: none), once chosen.
        give: Option<Option<usize>>,
    },
    /// Enlarging Charm, Effect 2: which free 2x2 footprint around its square the target grows
    /// into.
    Grow {
        /// The Charmer.
        user: UnitIdx,
        /// The charmed creature.
        target: UnitIdx,
    },
}

/// A decision in the middle of a brew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrewFrame {
    /// Which Potion goes into the attack below.
    Choose {
        /// The Brewer.
        user: UnitIdx,
        /// The delivery power.
        power: u16,
        /// Potions already chosen.
        picked: Vec<u16>,
    },
    /// Give Elixir: which Elixir (or Potion) to make.
    Make {
        /// The Brewer.
        user: UnitIdx,
        /// Who will carry it.
        to: UnitIdx,
    },
    /// Which carried Elixir to drink.
    Drink {
        /// The carrier.
        unit: UnitIdx,
    },
    /// Which carried Elixir to hand over.
    Pass {
        /// The carrier.
        unit: UnitIdx,
        /// The adjacent ally.
        to: UnitIdx,
    },
    /// Draught of Bonded Futures: in how many rounds (1-3) the named creature comes.
    Rounds {
        /// The Brewer.
        user: UnitIdx,
        /// The creature the Potion reached.
        target: UnitIdx,
        /// The named creature.
        named: UnitIdx,
        /// The Potion.
        power: u16,
    },
    /// Draught of Bonded Futures comes due: where next to the target the named creature lands.
    Bond {
        /// The named creature.
        unit: UnitIdx,
        /// The creature it joins.
        target: UnitIdx,
    },
    /// A Target-link Potion: name yourself or a teammate.
    Name {
        /// The Brewer.
        user: UnitIdx,
        /// The creature the Potion reached.
        target: UnitIdx,
        /// The Potion.
        power: u16,
        /// Its hook.
        hook: String,
    },
}

/// A gadget's question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GadgetFrame {
    /// Bag of Tricks: which gadget.
    Bag {
        /// The Tinker.
        user: UnitIdx,
        /// The creature hit.
        target: UnitIdx,
    },
    /// Irena's Cloak: which square next to the target.
    Cloak {
        /// The Tinker.
        user: UnitIdx,
        /// The creature hit.
        target: UnitIdx,
        /// The power.
        power: u16,
    },
    /// The free trap slide (L1281): which of its traps the Tinker slides 1 square, if any.
    SlideWhich {
        /// The Tinker.
        tinker: UnitIdx,
    },
    /// The free trap slide: where the chosen trap goes.
    SlideTo {
        /// The Tinker.
        tinker: UnitIdx,
        /// The trap.
        trap: UnitIdx,
    },
    /// A Leader's Role Boost loaded into a trap: which ally regains 2 HP (K-ROLE-5).
    LoadedHeal {
        /// The Tinker.
        tinker: UnitIdx,
    },
}

/// A Ward power's question.
#[derive(Clone, Debug)]
pub enum WardFrame {
    /// Ward Bash, Ward Burst: how many points of its own Special Ward the attacker peels off.
    Peel {
        /// The Wardmaster.
        unit: UnitIdx,
    },
}

/// A Diviner power's question.
#[derive(Clone, Debug)]
pub enum DivFrame {
    /// Seeking Hex: which square next to the Diviner the hex appears on.
    HexSquare {
        /// The Diviner.
        unit: UnitIdx,
        /// The enemy it seeks.
        quarry: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Empathic Bond's questions (empathy.rs).
    Bond {
        /// The Diviner.
        unit: UnitIdx,
        /// The bonded ally.
        ally: UnitIdx,
        /// The power.
        power: u16,
        /// Which question.
        step: BondStep,
    },
}

/// A question one of these powers asks.
#[derive(Clone, Debug)]
pub enum WandFrame {
    /// Recovery Shot: which status the user saves against.
    Recover {
        /// The Wandslinger.
        unit: UnitIdx,
    },
    /// Trick Shot: which orb the target drops (the attacker picks).
    Drop {
        /// The attacker.
        user: UnitIdx,
        /// The creature dropping it.
        target: UnitIdx,
    },
    /// Rapid Fire: at which enemy not hit this turn the attack is repeated, or none.
    Repeat {
        /// The attacker.
        user: UnitIdx,
        /// The power repeated.
        power: u16,
    },
    /// Forking Bolt: the next enemy the bolt forks to.
    Fork {
        /// The attacker.
        user: UnitIdx,
        /// The power.
        power: u16,
        /// The bolt's target and every enemy it has forked to (never picked again).
        chosen: Vec<UnitIdx>,
        /// Where forks start from and the damage they deal, the current one first.
        branches: Vec<(Pos, i32)>,
        /// Picks left from the current branch.
        left: u8,
    },
    /// Running Shot: walk on (a square), shoot (`shoot:<id>`) or stop.
    Run {
        /// The Wandslinger.
        unit: UnitIdx,
        /// Squares of movement left.
        left: i32,
        /// Whether the shot has been made.
        shot: bool,
    },
}

/// A question about a warp, a trap or a Porter's teleport.
#[derive(Clone, Debug)]
pub enum WarpFrame {
    /// Where a new warp opens: a square next to the power's target (the owner chooses).
    Place {
        /// The Porter.
        owner: UnitIdx,
        /// The warp power.
        power: u16,
        /// Its target.
        target: UnitIdx,
    },
    /// A Floor Portal missed: which empty square next to the target the trap opens on.
    TrapPlace {
        /// The Porter.
        owner: UnitIdx,
        /// The power.
        power: u16,
        /// Its target.
        target: UnitIdx,
    },
    /// Scouting Warp: `unit` came into its side's warp and may teleport 4 squares.
    Scout {
        /// Who stepped in.
        unit: UnitIdx,
        /// The warp's Porter (the teleport is the Porter's).
        owner: UnitIdx,
    },
    /// A Floor Portal trap swallows `unit` (no question: it resolves on its own).
    Swallow {
        /// Who came in.
        unit: UnitIdx,
        /// The trap's Porter.
        owner: UnitIdx,
        /// The power.
        power: u16,
    },
    /// Reinforcements: where the named ally lands, next to the target.
    Reinforce {
        /// The Porter.
        user: UnitIdx,
        /// The ally.
        ally: UnitIdx,
        /// The power's target.
        target: UnitIdx,
    },
    /// Hub Warp: which of the Porter's hub warps `unit` is sent to.
    Hub {
        /// The Porter.
        user: UnitIdx,
        /// Who is sent.
        unit: UnitIdx,
    },
    /// Short Tunnel: where the new portal opens, next to the Porter.
    TunnelPlace {
        /// The Porter.
        user: UnitIdx,
    },
    /// Short Tunnel: a third portal closes one of the two open ones, the Porter's pick.
    TunnelClose {
        /// The Porter.
        user: UnitIdx,
        /// Where the new one opens.
        new: Pos,
    },
    /// Short Tunnel: the Porter may step through the portal it just opened, coming out next to
    /// the other one.
    TunnelStep {
        /// The Porter.
        user: UnitIdx,
        /// The portal it opened.
        portal: Pos,
    },
    /// Basic Kinemancy: which orb.
    Item {
        /// The Porter.
        user: UnitIdx,
    },
    /// Ripping Tides: which of the things `target` holds is taken.
    Rip {
        /// The Porter.
        user: UnitIdx,
        /// The power's target.
        target: UnitIdx,
        /// The object is teleported rather than slid (Obi Francis's version, L3727).
        teleport: bool,
    },
    /// Where the object slides to (up to `range` squares from `from`).
    Slide {
        /// The Porter, who chooses.
        user: UnitIdx,
        /// What slides.
        what: Object,
        /// Where it starts.
        from: Pos,
        /// How far it may go.
        range: i32,
        /// It is teleported: any open square within `range`, whatever lies between.
        teleport: bool,
    },
    /// Basic Kinemancy brought the orb to `holder` (the Porter or an ally): take it in hand, or
    /// leave it on the ground.
    Hold {
        /// Who may take it.
        holder: UnitIdx,
        /// The orb.
        orb: crate::engine::ids::OrbIdx,
    },
}

/// A decision this module waits on.
#[derive(Clone, Debug)]
pub enum TamerFrame {
    /// Where the summoned creature appears.
    Place {
        /// The Tamer.
        tamer: UnitIdx,
        /// The summon power.
        power: u16,
    },
    /// Which creature obeys the command (the Tamer has more than one of its kind).
    Which {
        /// The Tamer.
        tamer: UnitIdx,
        /// The command power.
        power: u16,
    },
    /// Whom the creature's single-target attack aims at.
    Aim {
        /// The creature.
        creature: UnitIdx,
        /// The power.
        power: u16,
        /// It attacks with Advantage (Beast Charm).
        advantage: bool,
    },
    /// Summon Flame Pig: it attacks the enemies next to it it has not attacked yet, then shifts.
    PigBite {
        /// The Pig.
        pig: UnitIdx,
        /// Squares of shift left.
        left: i32,
        /// Enemies already attacked.
        bitten: Vec<UnitIdx>,
    },
    /// Summon Flame Pig: the Pig's next square of shift.
    PigRun {
        /// The Pig.
        pig: UnitIdx,
        /// Squares left.
        left: i32,
        /// Enemies already attacked.
        bitten: Vec<UnitIdx>,
    },
    /// Goring Tusks: push 2, or knock Prone.
    Tusks {
        /// The Pig.
        pig: UnitIdx,
        /// The target.
        target: UnitIdx,
    },
    /// The Tamer spent a Move Action: what its next creature does.
    Follow {
        /// The Tamer.
        tamer: UnitIdx,
        /// Creatures already asked.
        done: Vec<UnitIdx>,
    },
    /// The Scalehound Grabs an adjacent enemy as its Tamer's turn ends.
    HoundGrab {
        /// The Hound.
        hound: UnitIdx,
    },
    /// Move Territory: which beast's territory moves (`beast` unset), then its new centre.
    Territory {
        /// The Tamer.
        tamer: UnitIdx,
        /// The beast, once chosen.
        beast: Option<UnitIdx>,
    },
    /// The Giraffape is granted an Opportunity: damage, or the snatch.
    Snatch {
        /// The Giraffape.
        ape: UnitIdx,
        /// Who granted it.
        target: UnitIdx,
    },
    /// Beast Charm: the status the creature saves against.
    CharmSave {
        /// The creature.
        creature: UnitIdx,
        /// Its Tamer.
        tamer: UnitIdx,
    },
    /// A Dominated creature acts for its dominator (L1665): first its move, then its attack.
    Dominated {
        /// The creature.
        creature: UnitIdx,
        /// Who Dominates it.
        by: UnitIdx,
        /// Its move is done.
        moved: bool,
    },
    /// Give Your Move (wand): which creature takes it (`creature` unset), then where it walks.
    Extra {
        /// The Tamer.
        tamer: UnitIdx,
        /// The creature, once chosen.
        creature: Option<UnitIdx>,
    },
    /// Where a conjured creature appears: next to `near`, or (Mass Conjuror's second one)
    /// anywhere in the Tamer's implement range.
    Conjure {
        /// The Tamer.
        tamer: UnitIdx,
        /// The conjuring power.
        power: u16,
        /// The target it appears next to.
        near: Option<UnitIdx>,
    },
    /// A staff or sword Tamer's command or summon ends its turn (L1673-1677).
    Finish {
        /// The Tamer.
        tamer: UnitIdx,
    },
}

/// What Bullying Blade still has to do after its push.
#[derive(Clone, Debug)]
pub enum BullyFrame {
    /// The push has resolved: work out what follows.
    After {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Where the target stood before the push.
        start: Pos,
        /// Where the user stood (the push is measured from it).
        origin: Pos,
    },
    /// The user may deal extra damage for the squares the push was kept from.
    Damage {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Extra damage on offer.
        extra: i32,
        /// Squares the push moved it (the shift that may follow).
        pushed: i32,
    },
    /// Ghost Walk's walk: the unit picks where to go, `left` squares of movement left.
    Walk {
        /// Who walks.
        unit: UnitIdx,
        /// Squares of movement left.
        left: i32,
    },
    /// The user may shift up to `pushed` squares, ending next to the target.
    Shift {
        /// The attacker.
        user: UnitIdx,
        /// The pushed creature.
        target: UnitIdx,
        /// Up to how many squares.
        pushed: i32,
    },
    /// Path of Blades in progress.
    Path(Box<PathOfBlades>),
}

/// Something slid across the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Object {
    /// An orb.
    Orb(crate::engine::ids::OrbIdx),
    /// This creature's implement.
    Implement(UnitIdx),
}

/// Path of Blades in progress: a walk of up to the user's speed, stopping for a basic
/// implement attack against each enemy it comes next to.
#[derive(Clone, Debug)]
pub struct PathOfBlades {
    /// Who walks.
    pub unit: UnitIdx,
    /// Squares of movement left.
    pub left: i32,
    /// Enemies already attacked (once each).
    pub attacked: Vec<UnitIdx>,
    /// Enemies hit: they take no Opportunity during the walk.
    pub hit: Vec<UnitIdx>,
    /// Enemies that took an Opportunity during the walk (once each, K-OPP-1).
    pub provoked: Vec<UnitIdx>,
    /// Where the walk stands.
    pub stage: PathStage,
}

/// Where Path of Blades stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStage {
    /// The user picks where to walk next, or stops.
    Walk,
    /// A leg of the walk is under way to `end`; `met` were come next to on the way.
    Arrive {
        /// The leg's last square.
        end: Pos,
        /// Enemies come next to, still to be attacked there.
        met: Vec<UnitIdx>,
    },
    /// Attacks owed on this square.
    Attack {
        /// Enemies still to attack here.
        queue: Vec<UnitIdx>,
    },
    /// An attack is being made.
    Resolve {
        /// Its target.
        target: UnitIdx,
        /// It carries the Role Boost.
        boost: bool,
        /// Whether its roll hit, once known.
        hit: Option<bool>,
        /// Enemies still to attack here afterwards.
        queue: Vec<UnitIdx>,
    },
}

/// Empathic Bond's two questions.
#[derive(Clone, Debug)]
pub enum BondStep {
    /// Which way the 2 HP go.
    Transfer,
    /// Who receives the damage and negative statuses meant for either.
    Receiver,
}
