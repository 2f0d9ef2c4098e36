//! The state of a Draw Steel combat. Architecture invariant: only [`crate::events::apply`]
//! changes the game-visible fields; the resolution stack (`flow`, of [`crate::frames`]) is
//! changed only by pushing and popping frames. A data module: it imports no rule module.

use crate::frames::Frame;
use crate::model::{AbilityDef, Characteristic, ConditionKind, Size};

pub use crate::model::{Cx, Side};
use crate::options::Options;
use fray_core::grid::{Grid, Pos};
use fray_core::ruleset::Outcome;
use fray_core::turns::Alternating;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Open ground.
    Open,
    /// A solid object filling the square: blocks movement and line of effect.
    Wall,
    /// +1 square to enter (DS-GAP-9).
    Difficult,
    /// Hurts whoever enters it (DS-FM-6).
    Damaging,
    /// Liquid at least a square deep (DS-FALL-3).
    Water,
    /// Obscuring: creatures in it are concealed (DS-CONC-1).
    Fog,
    /// A gap to jump across: nobody stands in it; it blocks nothing (DS-JUMP).
    Chasm,
    /// An object standing in the square (DS-SIZE-3): nobody walks into it; forced into it, a
    /// creature no bigger than it is slammed (DS-SLAM-4).
    Object,
    /// Off the map.
    Edge,
}

impl Terrain {
    /// Whether creatures can stand in it.
    pub fn standable(self) -> bool {
        !matches!(self, Terrain::Wall | Terrain::Edge | Terrain::Chasm | Terrain::Object)
    }
    /// Map character.
    pub fn glyph(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Wall => '#',
            Terrain::Difficult => '~',
            Terrain::Damaging => '!',
            Terrain::Water => 'w',
            Terrain::Fog => 'o',
            Terrain::Chasm => 'c',
            Terrain::Object => 'O',
            Terrain::Edge => 'e',
        }
    }
}

/// The battlefield: terrain and ground height (in squares) of every square.
#[derive(Clone, Debug)]
pub struct Arena {
    /// Terrain.
    pub terrain: Grid<Terrain>,
    /// Height of the ground.
    pub height: Grid<i32>,
    /// Damage of damaging terrain.
    pub terrain_damage: i32,
    /// Whether there is anything to jump: a chasm or a ledge (DS-JUMP).
    pub leaps: bool,
}

impl Arena {
    /// Terrain at `p` (edge off the grid).
    pub fn at(&self, p: Pos) -> Terrain {
        self.terrain.get(p).copied().unwrap_or(Terrain::Edge)
    }
    /// Ground height at `p`.
    pub fn ground(&self, p: Pos) -> i32 {
        self.height.get(p).copied().unwrap_or(0)
    }
}

/// How long a condition lasts (DS-DUR-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Until {
    /// End of `who`'s turn number `turn` (DS-DUR-EOT).
    EndOfTurn {
        /// Whose.
        who: Cx,
        /// Which of its turns.
        turn: u32,
    },
    /// A d10 save at the end of each of its turns, 6+ ends it (DS-DUR-SAVE).
    SaveEnds,
    /// Until the encounter ends (or something removes it).
    Encounter,
}

/// A condition on a creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// Which.
    pub kind: ConditionKind,
    /// Who gave it: needed for frightened, grabbed and taunted, kept for every condition an
    /// ability gives, which its giver may end (DS-GAP-22).
    pub source: Option<Cx>,
    /// Duration.
    pub until: Until,
}

/// What a creature has done this turn (DS-TURN-1, DS-TURN-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acts {
    /// Main action used (or traded).
    pub main: bool,
    /// Maneuvers used (a second one is the traded main action).
    pub maneuvers: u8,
    /// Move actions used (a second one is the traded main action).
    pub moves: u8,
    /// Things done (dazed allows one).
    pub done: u8,
    /// Extra main actions granted by critical hits, not yet used.
    pub extra_main: u8,
    /// Squares left of the move action under way: a move may be split around the other
    /// actions (DS-TURN-1).
    pub move_left: i32,
    /// Squares a jump test added to this turn's jumps (DS-JUMP-3, DS-DELTA-11).
    #[serde(default)]
    pub jump_extra: i32,
    /// A jump test was made this turn.
    #[serde(default)]
    pub jump_tested: bool,
    /// A Malice feature was bought at the start of this turn (one a turn, DS-GAP-17).
    #[serde(default)]
    pub malice_used: bool,
    /// An extra main action (a critical hit's, a Solo Action's) was taken this turn: Defend is
    /// then no longer allowed (DS-GAP-19).
    #[serde(default)]
    pub extra_used: bool,
}

impl Acts {
    /// Nothing done yet this turn: still its start, when Malice features are bought
    /// (DS-GAP-17).
    pub fn fresh(&self) -> bool {
        self.main as u8 + self.maneuvers + self.moves + self.done + self.extra_main == 0
            && self.move_left == 0
            && !self.jump_tested
            && !self.malice_used
    }
}

/// A creature in the combat.
#[derive(Clone, Debug)]
pub struct Creature {
    /// Id.
    pub id: Arc<str>,
    /// Name.
    pub name: Arc<str>,
    /// Side.
    pub side: Side,
    /// Hero (dying rules) or Director creature (dies at 0).
    pub hero: bool,
    /// Level.
    pub level: i32,
    /// Square, or `None` when dead or gone.
    pub pos: Option<Pos>,
    /// Elevation of its lowest square (0 is the map's ground level).
    pub z: i32,
    /// Size.
    pub size: Size,
    /// Stamina.
    pub stamina: i32,
    /// Maximum Stamina.
    pub max_stamina: i32,
    /// Temporary Stamina (DS-GAP-20).
    pub temp_stamina: i32,
    /// Recoveries left.
    pub recoveries: i32,
    /// Recoveries when rested (DS-REC-1, DS-REST-2).
    pub max_recoveries: i32,
    /// Victories earned since the last respite (DS-REST-2).
    pub victories: i32,
    /// Experience (DS-REST-2: victories become experience at a respite).
    pub experience: i32,
    /// Speed.
    pub speed: i32,
    /// Stability (DS-STAB-1).
    pub stability: i32,
    /// Characteristic scores.
    pub chars: [i32; 5],
    /// Flat free strike damage (Director creatures), or `None` for heroes (DS-GAP-13).
    pub free_strike: Option<i32>,
    /// Abilities (fixed for the combat: shared between clones).
    pub abilities: Arc<[Arc<AbilityDef>]>,
    /// Conditions.
    pub conditions: Vec<Condition>,
    /// Surges (DS-SURGE).
    pub surges: i32,
    /// This turn's actions.
    pub acts: Acts,
    /// It has taken its turn this round.
    pub acted: bool,
    /// Turns taken.
    pub turns: u32,
    /// It used its triggered action this round (DS-GAP-12).
    pub triggered_used: bool,
    /// Surprised until the end of round 1 (DS-SURP-1).
    pub surprised: bool,
    /// Hidden (DS-HIDE).
    pub hidden: bool,
    /// Enemies that still see it while it is hidden (published hiding, DS-DELTA-8): it is hidden
    /// from every other enemy. Kept while it is being given away, for the edge (DS-HIDE-3).
    pub seen_by: Vec<Cx>,
    /// Given away while hidden: stops being hidden at the end of the current turn (DS-HIDE-3).
    pub revealing: bool,
    /// Invisible (DS-INVIS-1).
    pub invisible: bool,
    /// Defending until the start of its next turn (DS-GAP-12).
    pub defending: bool,
    /// An enemy of this creature aided an attack on it: the next ability roll against it by one
    /// of that creature's allies gains an edge (Aid Attack, DS-GAP-12).
    pub aided_by: Option<Cx>,
    /// Flying.
    pub flying: bool,
    /// Falling from a great height: the elevation it fell from and the round the fall began
    /// (DS-FALL-7).
    pub falling: Option<(i32, u32)>,
    /// Brutal Effectiveness bought: its next ability with a potency has it 1 higher
    /// (DS-GAP-17).
    pub brutal: bool,
    /// Malicious Strike bought: this much extra damage to one target of its next strike
    /// (DS-GAP-17).
    pub malicious: i32,
    /// The places in `abilities` of the villain actions it has used (DS-GAP-19).
    pub villain_used: Vec<u16>,
    /// Its class's Heroic Resource: name and gain at the start of each turn (DS-GAP-15).
    pub class: Option<(&'static str, &'static str, crate::model::Gain)>,
    /// Heroic Resource (DS-GAP-15).
    pub resource: i32,
    /// Its class's once-a-round trigger has given resource this round / its once-an-encounter
    /// trigger has / its second once-a-round trigger has (the censor's and the tactician's,
    /// which have two) (DS-GAP-15).
    pub resource_triggers: (bool, bool, bool),
    /// The censor whose Judgment is on it (DS-GAP-15).
    pub judged_by: Option<Cx>,
    /// The tactician whose Mark is on it (DS-GAP-15).
    pub marked_by: Option<Cx>,
    /// A solo (DS-GAP-19): two turns a round, never one straight after the other.
    pub solo: bool,
    /// Turns it has taken this round.
    pub round_turns: u8,
    /// A minion (DS-GAP-19): its Stamina is its squad's pool.
    pub minion: bool,
    /// The squad it belongs to (an index into [`State::squads`]): its minions, or its captain.
    pub squad: Option<u8>,
    /// Its "With Captain" bonus (minions, DS-GAP-19).
    pub with_captain: Option<crate::model::WithCaptain>,
    /// Damage immunities (DS-GAP-20): a damage type (or `damage`, every kind) and the amount.
    pub immunities: Arc<[(Arc<str>, i32)]>,
    /// Damage weaknesses (DS-GAP-20), as the immunities.
    pub weaknesses: Arc<[(Arc<str>, i32)]>,
    /// A mount (role), which cannot captain a squad.
    pub mount: bool,
    /// Dead.
    pub dead: bool,
    /// Knocked out at 0 Stamina instead of killed (DS-GAP-20): unconscious and prone, out of
    /// the fight, its body where it fell.
    pub unconscious: bool,
}

/// The maneuvers a squad's minions use together, one roll for the squad (DS-GAP-19).
pub const SHARED_MANEUVERS: [&str; 3] = ["grab", "knockback", "search"];

/// `name` as one of [`SHARED_MANEUVERS`] (an unknown name reads as the last).
pub fn shared_maneuver(name: &str) -> &'static str {
    SHARED_MANEUVERS.iter().copied().find(|m| *m == name).unwrap_or(SHARED_MANEUVERS[2])
}

/// A squad of minions sharing one Stamina pool (DS-GAP-19).
#[derive(Clone, Debug)]
pub struct Squad {
    /// Its name in the encounter.
    pub name: Arc<str>,
    /// Its minions.
    pub members: Vec<Cx>,
    /// One minion's Stamina: each time the pool drops by this much, a minion dies.
    pub each: i32,
    /// The shared Stamina left.
    pub pool: i32,
    /// Its captain, if any (a creature that is not a minion).
    pub captain: Option<Cx>,
    /// The squad's one power roll for its signature ability this turn (DS-GAP-19): the round,
    /// the ability's id and the roll.
    pub roll: Option<(u32, Arc<str>, crate::power_roll::Rolled)>,
    /// The creatures that roll has struck, each with how many minions struck it.
    pub struck: Vec<(Cx, u8)>,
    /// The minions that have used that roll (one using the ability again, on a critical hit's
    /// extra main action, rolls anew).
    pub rolled_for: Vec<Cx>,
    /// The squad's one roll for each maneuver its minions use together (DS-GAP-19: Grab,
    /// Knockback, Search): the round, the maneuver and the roll.
    pub maneuver_rolls: Vec<(u32, &'static str, crate::power_roll::Rolled)>,
    /// The creatures one of those maneuvers has affected: the round, the maneuver, the target.
    pub maneuvered: Vec<(u32, &'static str, Cx)>,
}

impl Squad {
    /// How many of its minions have struck `t` with this turn's squad roll.
    pub fn struck(&self, t: Cx) -> u8 {
        self.struck.iter().find(|p| p.0 == t).map_or(0, |p| p.1)
    }
    /// The squad's roll for `maneuver` in `round`, if a minion has made it.
    pub fn maneuver_roll(&self, round: u32, maneuver: &str) -> Option<crate::power_roll::Rolled> {
        self.maneuver_rolls.iter().find(|m| m.0 == round && m.1 == maneuver).map(|m| m.2)
    }
    /// Whether the squad's `maneuver` has already affected `t` in `round`.
    pub fn maneuvered(&self, round: u32, maneuver: &str, t: Cx) -> bool {
        self.maneuvered.iter().any(|m| m.0 == round && m.1 == maneuver && m.2 == t)
    }
    /// How many minions the pool keeps alive: one per minion's worth, rounded up.
    pub fn keeps(&self) -> usize {
        if self.pool <= 0 { 0 } else { ((self.pool + self.each - 1) / self.each.max(1)) as usize }
    }
}

impl Creature {
    /// A characteristic score.
    pub fn char(&self, c: Characteristic) -> i32 {
        self.chars[c.index()]
    }
    /// The highest characteristic score.
    pub fn highest(&self) -> i32 {
        self.chars.iter().copied().max().unwrap_or(0)
    }
    /// Winded value: half maximum Stamina, rounded down (DS-HP-WIND).
    pub fn winded_value(&self) -> i32 {
        self.max_stamina / 2
    }
    /// Recovery value: a third of maximum Stamina, rounded down (DS-REC-1, DS-DELTA-12).
    pub fn recovery_value(&self) -> i32 {
        self.max_stamina / 3
    }
    /// Winded (DS-HP-WIND).
    pub fn winded(&self) -> bool {
        // DS-GAP-19: minions are never winded.
        !self.minion && self.stamina <= self.winded_value()
    }
    /// Dying: a hero at 0 Stamina or less (DS-HP-DYING-1).
    pub fn dying(&self) -> bool {
        self.hero && !self.dead && self.stamina <= 0
    }
    /// On the battlefield and alive.
    pub fn active(&self) -> bool {
        self.pos.is_some() && !self.dead && !self.unconscious
    }
}

/// `fray_core::geometry::distance` (squares between two footprints), inlined for the rules'
/// hot paths.
#[inline]
pub fn footprint_distance(a: Pos, a_size: i32, b: Pos, b_size: i32) -> i32 {
    let gap = |a0: i32, asz: i32, b0: i32, bsz: i32| (b0 - (a0 + asz - 1)).max(a0 - (b0 + bsz - 1)).max(0);
    gap(a.x, a_size, b.x, b_size).max(gap(a.y, a_size, b.y, b_size))
}

/// An object on the map (DS-SIZE-3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapObject {
    /// What it is.
    pub name: String,
    /// Its top-left square.
    pub at: Pos,
    /// Its size: squares filled, or heft when oblong.
    pub size: Size,
    /// "O": the size is heft; the object fills a single square.
    pub oblong: bool,
    /// Knocked over by a bigger creature: it no longer stands in the way.
    pub toppled: bool,
    /// What it is made of, if the map says: its squares then have Stamina (DS-GAP-20).
    pub material: Option<Material>,
    /// Stamina left in each square it fills, in [`MapObject::squares`] order (rows, then
    /// columns); empty without a material. A square at 0 is destroyed: open ground.
    pub stamina: Vec<i32>,
}

/// What an object is made of (DS-GAP-20): it sets the Stamina of each of its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Material {
    /// 1 Stamina a square.
    Glass,
    /// 3 a square.
    Wood,
    /// 6 a square.
    Stone,
    /// 9 a square.
    Metal,
}

impl Material {
    /// DS-GAP-20: the Stamina of one square of it.
    pub fn stamina_per_square(self) -> i32 {
        match self {
            Material::Glass => 1,
            Material::Wood => 3,
            Material::Stone => 6,
            Material::Metal => 9,
        }
    }
    /// As written in a map: "glass", "wood"...
    pub fn name(self) -> &'static str {
        match self {
            Material::Glass => "glass",
            Material::Wood => "wood",
            Material::Stone => "stone",
            Material::Metal => "metal",
        }
    }
}

impl MapObject {
    /// A new object; with a material, each square starts at its material's Stamina
    /// (DS-GAP-20).
    pub fn new(name: String, at: Pos, size: Size, oblong: bool, material: Option<Material>) -> Self {
        let n = if oblong { 1 } else { size.squares };
        let stamina = material.map_or(Vec::new(), |m| vec![m.stamina_per_square(); (n * n) as usize]);
        MapObject { name, at, size, oblong, toppled: false, material, stamina }
    }
    /// Squares a side it spans.
    fn side(&self) -> i32 {
        if self.oblong { 1 } else { self.size.squares }
    }
    /// The squares it fills: its size's N x N, or one square if oblong; a destroyed square
    /// (DS-GAP-20) no longer counts.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        fray_core::grid::footprint(self.at, self.side()).filter(|&q| self.fills(q))
    }
    /// Where square `p` is in [`MapObject::stamina`], if the object spans it.
    pub fn index(&self, p: Pos) -> Option<usize> {
        let n = self.side();
        let (dx, dy) = (p.x - self.at.x, p.y - self.at.y);
        ((0..n).contains(&dx) && (0..n).contains(&dy)).then_some((dy * n + dx) as usize)
    }
    /// The Stamina left in square `p`, for an object with a material that fills it.
    pub fn stamina_at(&self, p: Pos) -> Option<i32> {
        self.index(p).and_then(|i| self.stamina.get(i).copied())
    }
    /// Squares destroyed so far (DS-GAP-20).
    pub fn destroyed(&self) -> usize {
        self.stamina.iter().filter(|&&x| x <= 0).count()
    }
    /// Whether it fills square `p` (one of [`MapObject::squares`], without walking them): a
    /// square it spans that is not destroyed.
    pub fn fills(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.stamina.get(i).is_none_or(|&x| x > 0))
    }
    /// As written: "2O", "1L"...
    pub fn label(&self) -> String {
        format!("{}{}", self.size.label(), if self.oblong { "O" } else { "" })
    }
}

/// A combat.
#[derive(Clone, Debug)]
pub struct State {
    /// The battlefield.
    pub arena: Arc<Arena>,
    /// Table options.
    pub options: Arc<Options>,
    /// Creatures.
    pub creatures: Vec<Creature>,
    /// Round, from 1.
    pub round: u32,
    /// Whose pick is next (DS-GAP-11).
    pub order: Alternating,
    /// The creature whose turn it is.
    pub current: Option<Cx>,
    /// The heroes' hero tokens (DS-TOKEN).
    pub hero_tokens: i32,
    /// A hero token was spent this turn (DS-TOKEN-1).
    pub token_spent_this_turn: bool,
    /// The last test's outcome, for readers.
    pub last_test: Option<String>,
    /// The ordinary test the current creature made last this turn, which a hero token may
    /// reroll under the published rule (DS-TOKEN-4, DS-DELTA-6).
    pub rerollable: Option<(Cx, crate::power_roll::TestKind)>,
    /// Wall squares raised during the combat (DS-AREA-5): they block like walls.
    pub walls: Vec<Pos>,
    /// Objects on the map (DS-SIZE-3).
    pub objects: Vec<MapObject>,
    /// The creature whose turn ended last (a solo never takes two turns in a row, DS-GAP-19).
    pub last_turn: Option<Cx>,
    /// The round a villain action was last used in: one a round (DS-GAP-19).
    pub villain_round: Option<u32>,
    /// Squads of minions (DS-GAP-19).
    pub squads: Vec<Squad>,
    /// The Director's Malice (DS-GAP-17).
    pub malice: i32,
    /// The round Malicious Strike was last bought in: not again the round after (DS-GAP-17).
    pub malicious_strike_round: Option<u32>,
    /// Half-resolved actions.
    pub flow: Vec<Frame>,
    /// How the combat ended.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The creature at `c`.
    pub fn c(&self, c: Cx) -> &Creature {
        &self.creatures[c as usize]
    }
    /// Every creature index.
    pub fn all(&self) -> impl Iterator<Item = Cx> + '_ {
        (0..self.creatures.len()).map(|i| i as Cx)
    }
    /// Creatures on the field and alive.
    pub fn active(&self) -> impl Iterator<Item = Cx> + '_ {
        self.all().filter(|&c| self.c(c).active())
    }
    /// Finds a creature by id.
    pub fn find(&self, id: &str) -> Option<Cx> {
        self.all().find(|&c| &*self.c(c).id == id)
    }
    /// Enemies: creatures of the other side.
    pub fn enemies(&self, a: Cx, b: Cx) -> bool {
        self.c(a).side != self.c(b).side
    }
    /// Distance between two creatures, height included.
    #[inline]
    pub fn distance(&self, a: Cx, b: Cx) -> Option<i32> {
        let (x, y) = (self.c(a), self.c(b));
        // `fray_core::geometry::distance_3d`, inlined.
        let (xs, ys) = (x.size.squares, y.size.squares);
        let flat = footprint_distance(x.pos?, xs, y.pos?, ys);
        let dz = (y.z - (x.z + xs - 1)).max(x.z - (y.z + ys - 1)).max(0);
        Some(flat.max(dz))
    }
    /// Whether `h` is hidden from the enemy `x` now (DS-HIDE-3, DS-DELTA-8): glossary, a
    /// hidden creature is hidden from every enemy; published, from each enemy it hid from, not
    /// from those that still saw it.
    pub fn hidden_from(&self, h: Cx, x: Cx) -> bool {
        let c = self.c(h);
        c.hidden
            && self.enemies(h, x)
            && (self.options.hidden == crate::options::Text::Glossary || !c.seen_by.contains(&x))
    }
    /// Whether no creature of `side` knows where `c` is: `c`, an enemy on the battlefield, is
    /// hidden from every creature of `side` still on it (DS-HIDE-1, DS-HIDE-3, DS-DELTA-8). The
    /// seat of `side` is then not shown its square (docs/rulings/drawsteel.md, seat views).
    pub fn unseen_by(&self, c: Cx, side: Side) -> bool {
        let x = self.c(c);
        x.side != side
            && x.hidden
            && x.active()
            && self.active().filter(|&e| self.c(e).side == side).all(|e| self.hidden_from(c, e))
    }
    /// Whether `c`'s enemies' seat does not know where it is (see [`State::unseen_by`]).
    pub fn unseen(&self, c: Cx) -> bool {
        self.unseen_by(c, self.c(c).side.other())
    }
    /// The squad `c` is a minion of.
    pub fn squad_of(&self, c: Cx) -> Option<usize> {
        let x = self.c(c);
        x.squad.filter(|_| x.minion).map(usize::from)
    }
    /// `c`'s "With Captain" bonus, while its squad's captain is alive (DS-GAP-19).
    pub fn captain_bonus(&self, c: Cx) -> Option<crate::model::WithCaptain> {
        let q = self.squad_of(c)?;
        let captain = self.squads[q].captain?;
        self.c(captain).active().then_some(self.c(c).with_captain?)
    }
    /// Whether `c` has condition `k`.
    pub fn has(&self, c: Cx, k: ConditionKind) -> bool {
        self.c(c).conditions.iter().any(|x| x.kind == k) || (k == ConditionKind::Bleeding && self.c(c).dying())
    }
    /// The source of `c`'s condition `k`, if any.
    pub fn source_of(&self, c: Cx, k: ConditionKind) -> Option<Cx> {
        self.c(c).conditions.iter().find(|x| x.kind == k).and_then(|x| x.source)
    }
    /// Terrain at `p`, counting walls raised during the combat.
    #[inline]
    pub fn terrain_at(&self, p: Pos) -> Terrain {
        if !self.walls.is_empty() && self.walls.contains(&p) {
            Terrain::Wall
        } else if self.objects.iter().any(|o| !o.toppled && o.fills(p)) {
            Terrain::Object
        } else {
            self.arena.at(p)
        }
    }
    /// Whether `p` is a wall (`terrain_at(p) == Terrain::Wall`), with the objects looked at only
    /// where the map has a wall: what line of effect asks of every square it crosses.
    #[inline]
    pub fn is_wall(&self, p: Pos) -> bool {
        self.walls.contains(&p) || (self.arena.at(p) == Terrain::Wall && self.object_at(p).is_none())
    }
    /// The standing object filling square `p`, if any.
    pub fn object_at(&self, p: Pos) -> Option<usize> {
        self.objects.iter().position(|o| !o.toppled && o.fills(p))
    }
    /// The creature occupying square `p` (footprints, same level), if any.
    pub fn at(&self, p: Pos) -> Option<Cx> {
        // `active()` walked directly, each creature read once.
        self.creatures.iter().enumerate().find_map(|(c, x)| {
            let at = x.pos?;
            (!x.dead && footprint_distance(at, x.size.squares, p, 1) == 0).then_some(c as Cx)
        })
    }
}
