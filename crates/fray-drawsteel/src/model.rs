//! Draw Steel content as data: characteristics, sizes, conditions, and the stat block format
//! (creatures and heroes with their abilities) that people write for their own monsters and
//! heroes. Checked on load; errors name the file, the line and the field.

use serde::{Deserialize, Serialize};

/// Index of a creature.
pub type Cx = u8;

/// The two sides of a combat (DS-INIT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The heroes' side.
    Heroes,
    /// The Director's side.
    Director,
}

impl Side {
    /// Index (heroes 0, Director 1).
    pub fn index(self) -> usize {
        self as usize
    }
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Heroes => Side::Director,
            Side::Director => Side::Heroes,
        }
    }
    /// From an index.
    pub fn from_index(i: usize) -> Side {
        if i == 0 { Side::Heroes } else { Side::Director }
    }
    /// Lowercase name, also the seat name.
    pub fn name(self) -> &'static str {
        match self {
            Side::Heroes => "heroes",
            Side::Director => "director",
        }
    }
    /// Parses a side name.
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim().to_lowercase().as_str() {
            "heroes" | "hero" | "players" => Some(Side::Heroes),
            "director" | "monsters" | "enemies" => Some(Side::Director),
            _ => None,
        }
    }
}

/// The five characteristics (DS-GAP-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Characteristic {
    /// Might.
    Might,
    /// Agility.
    Agility,
    /// Reason.
    Reason,
    /// Intuition.
    Intuition,
    /// Presence.
    Presence,
}

impl Characteristic {
    /// All five, in the usual order (index into score arrays).
    pub const ALL: [Characteristic; 5] = [
        Characteristic::Might,
        Characteristic::Agility,
        Characteristic::Reason,
        Characteristic::Intuition,
        Characteristic::Presence,
    ];
    /// Index into a score array.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The potency letter (DS-GAP-5).
    pub fn letter(self) -> char {
        ['M', 'A', 'R', 'I', 'P'][self.index()]
    }
    /// Parses a name or a potency letter.
    pub fn parse(s: &str) -> Option<Characteristic> {
        match s.trim().to_lowercase().as_str() {
            "might" | "m" => Some(Characteristic::Might),
            "agility" | "a" => Some(Characteristic::Agility),
            "reason" | "r" => Some(Characteristic::Reason),
            "intuition" | "i" => Some(Characteristic::Intuition),
            "presence" | "p" => Some(Characteristic::Presence),
            _ => None,
        }
    }
}

/// The conditions (DS-COND-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConditionKind {
    /// Loses Stamina after acting (DS-COND-BLEED).
    Bleeding,
    /// One thing a turn (DS-COND-DAZED).
    Dazed,
    /// Banes against its source (DS-COND-FRIGHT).
    Frightened,
    /// Held (DS-COND-GRAB-*).
    Grabbed,
    /// On the ground (DS-COND-PRONE-*).
    Prone,
    /// Held fast (DS-COND-RESTR-*).
    Restrained,
    /// Speed 2 (DS-COND-SLOW).
    Slowed,
    /// Double bane against others (DS-COND-TAUNT).
    Taunted,
    /// Bane on all power rolls (DS-COND-WEAK).
    Weakened,
}

impl ConditionKind {
    /// Every condition.
    pub const ALL: [ConditionKind; 9] = [
        ConditionKind::Bleeding,
        ConditionKind::Dazed,
        ConditionKind::Frightened,
        ConditionKind::Grabbed,
        ConditionKind::Prone,
        ConditionKind::Restrained,
        ConditionKind::Slowed,
        ConditionKind::Taunted,
        ConditionKind::Weakened,
    ];
    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            ConditionKind::Bleeding => "bleeding",
            ConditionKind::Dazed => "dazed",
            ConditionKind::Frightened => "frightened",
            ConditionKind::Grabbed => "grabbed",
            ConditionKind::Prone => "prone",
            ConditionKind::Restrained => "restrained",
            ConditionKind::Slowed => "slowed",
            ConditionKind::Taunted => "taunted",
            ConditionKind::Weakened => "weakened",
        }
    }
    /// Parses a name.
    pub fn parse(s: &str) -> Option<ConditionKind> {
        let n = s.trim().to_lowercase();
        ConditionKind::ALL.into_iter().find(|k| k.name() == n)
    }
    /// Whether the condition names a source creature.
    pub fn has_source(self) -> bool {
        matches!(self, ConditionKind::Frightened | ConditionKind::Grabbed | ConditionKind::Taunted)
    }
}

/// Creature size (DS-SIZE-1, DS-SIZE-2, DS-GAP-24): squares per side, with T/S/M/L for size 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    /// Squares per side of its cube.
    pub squares: i32,
    /// For size 1: 0 tiny, 1 small, 2 medium, 3 large.
    pub class: u8,
}

impl Size {
    /// Parses "1T", "1S", "1M", "1L", "2", "3"...
    pub fn parse(s: &str) -> Option<Size> {
        let s = s.trim().to_uppercase();
        let (num, letter) = s.split_at(s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len()));
        let squares: i32 = num.parse().ok().filter(|&n| (1..=limits::SIZE).contains(&n))?;
        let class = match (squares, letter) {
            (1, "T") => 0,
            (1, "S") => 1,
            (1, "M") | (1, "") => 2,
            (1, "L") => 3,
            (_, "") => 3,
            _ => return None,
        };
        Some(Size { squares, class })
    }
    /// Parses an object's size: a creature size, or one followed by O ("oblong", DS-SIZE-3) for
    /// heft rather than space. Returns the size and whether it is oblong.
    pub fn parse_object(s: &str) -> Option<(Size, bool)> {
        let t = s.trim().to_uppercase();
        match t.strip_suffix('O') {
            Some(rest) => Size::parse(rest).map(|z| (z, true)),
            None => Size::parse(&t).map(|z| (z, false)),
        }
    }
    /// An order for comparing sizes: 1T < 1S < 1M < 1L < 2 < 3...
    pub fn rank(self) -> i32 {
        if self.squares == 1 { self.class as i32 } else { 2 + self.squares }
    }
    /// Its number for comparisons with scores ("size greater than its Might": 1 for any size 1).
    pub fn value(self) -> i32 {
        self.squares
    }
    /// As written.
    pub fn label(self) -> String {
        if self.squares == 1 {
            format!("1{}", ['T', 'S', 'M', 'L'][self.class as usize])
        } else {
            self.squares.to_string()
        }
    }
}

/// When an ability is used (DS-TURN-1, DS-GAP-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Usage {
    /// The main action.
    Main,
    /// A maneuver.
    Maneuver,
    /// A move action.
    Move,
    /// A triggered action.
    Triggered,
    /// A free triggered action.
    FreeTriggered,
    /// A creature's own Malice feature (DS-GAP-17): bought with the Director's Malice at the
    /// start of the creature's turn, costing no action.
    Malice,
    /// A leader's or solo's villain action (DS-GAP-19): once per encounter, at most one of them
    /// a round among all the Director's creatures, at the end of another creature's turn.
    Villain,
}

/// How far an ability reaches (DS-DIST-1, DS-GAP-7, DS-AREA-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Distance {
    /// Targets within `reach` squares, melee.
    Melee {
        /// Squares.
        reach: i32,
    },
    /// Targets within `range` squares, ranged.
    Ranged {
        /// Squares.
        range: i32,
    },
    /// The user itself.
    Myself,
    /// Everyone within `size` of the user, moving with it (DS-AREA-1).
    Aura {
        /// Squares.
        size: i32,
    },
    /// Everyone within `size` of the user (DS-AREA-2).
    Burst {
        /// Squares.
        size: i32,
    },
    /// A cube `size` squares on a side, its corner square within `within` (DS-AREA-3).
    Cube {
        /// Side.
        size: i32,
        /// How far its origin square may be.
        within: i32,
    },
    /// A line `length` long and `width` wide from the user (DS-AREA-4).
    Line {
        /// Length.
        length: i32,
        /// Width and height.
        width: i32,
    },
    /// A wall of `size` squares, each sharing a side with another, the first within `within`
    /// (DS-AREA-5).
    Wall {
        /// Squares.
        size: i32,
        /// How far its first square may be.
        within: i32,
    },
    /// A moving ability: the user shifts up to `shift` squares as part of it and it affects
    /// every creature within `reach` of any space of that move, from the first space left to
    /// the last entered (DS-TURN-3).
    Sweep {
        /// Squares the user may shift.
        shift: i32,
        /// Reach from each space of the move.
        reach: i32,
    },
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distance::Melee { reach } => write!(f, "melee {reach}"),
            Distance::Ranged { range } => write!(f, "ranged {range}"),
            Distance::Myself => write!(f, "self"),
            Distance::Aura { size } => write!(f, "{size} aura"),
            Distance::Burst { size } => write!(f, "{size} burst"),
            Distance::Cube { size, within } => write!(f, "{size} cube within {within}"),
            Distance::Line { length, width } => write!(f, "{length} x {width} line"),
            Distance::Wall { size, within } => write!(f, "{size} wall within {within}"),
            Distance::Sweep { shift, reach } => write!(f, "shift {shift}, reaching {reach} along the way"),
        }
    }
}

impl Distance {
    /// Whether it is an area (DS-GAP-14: areas are never strikes; they can target the hidden).
    pub fn is_area(self) -> bool {
        matches!(
            self,
            Distance::Aura { .. }
                | Distance::Burst { .. }
                | Distance::Cube { .. }
                | Distance::Line { .. }
                | Distance::Wall { .. }
                | Distance::Sweep { .. }
        )
    }
    /// Whether the area needs a square chosen: a cube's corner, a line's direction.
    pub fn needs_square(self) -> bool {
        matches!(self, Distance::Cube { .. } | Distance::Line { .. })
    }
}

/// Whom an ability affects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKind {
    /// Creatures (default).
    #[default]
    Creatures,
    /// Enemies only.
    Enemies,
    /// Allies (the user included when "self and allies").
    Allies,
    /// The user.
    Myself,
}

/// One effect an ability tier (or its always-on Effect) applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    /// A condition to give.
    #[serde(default)]
    pub condition: Option<String>,
    /// How long: "eot" (default), "save-ends", "encounter".
    #[serde(default)]
    pub until: Option<String>,
    /// Potency gate, e.g. "M<2": applies only if the target's Might is below 2 (DS-GAP-5).
    #[serde(default)]
    pub potency: Option<String>,
    /// Push distance.
    #[serde(default)]
    pub push: Option<i32>,
    /// Pull distance.
    #[serde(default)]
    pub pull: Option<i32>,
    /// Slide distance.
    #[serde(default)]
    pub slide: Option<i32>,
    /// Vertical forced movement allowed (the "vertical" keyword).
    #[serde(default)]
    pub vertical: bool,
    /// Teleports the target up to this many squares (the user picks where).
    #[serde(default)]
    pub teleport: Option<i32>,
    /// Temporary Stamina for the target.
    #[serde(default)]
    pub temporary_stamina: Option<i32>,
    /// Stamina regained by the target.
    #[serde(default)]
    pub heal: Option<i32>,
    /// The target spends a Recovery: a hero one of its own, if it has any left; a Director
    /// creature, which has none, regains its recovery value all the same (DS-GAP-20).
    #[serde(default)]
    pub recovery: bool,
    /// The user judges the target (the censor's Judgment, DS-GAP-15): its earlier judgment
    /// ends, and another censor's judgment of the target ends.
    #[serde(default)]
    pub judge: bool,
    /// The user marks the target (the tactician's Mark, DS-GAP-15): its earlier mark ends, and
    /// another tactician's mark on the target ends.
    #[serde(default)]
    pub mark: bool,
}

/// One tier's result: damage (plus the characteristic, for heroes' abilities) and effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TierDef {
    /// Damage.
    #[serde(default)]
    pub damage: i32,
    /// Whether the rolled characteristic is added to the damage.
    #[serde(default)]
    pub plus_characteristic: bool,
    /// The damage's type (fire, poison...; DS-GAP-20), or none for untyped damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<String>,
    /// Effects.
    #[serde(default)]
    pub effects: Vec<EffectDef>,
}

/// An ability (DS-GAP-14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityDef {
    /// Id used in commands.
    pub id: String,
    /// Name.
    pub name: String,
    /// Keywords: melee, ranged, strike, area, weapon, magic, charge...
    #[serde(default)]
    pub keywords: Vec<String>,
    /// When it is used.
    pub usage: Usage,
    /// Distance.
    pub distance: Distance,
    /// How many targets (areas: everyone inside who qualifies).
    #[serde(default = "one")]
    pub targets: i32,
    /// Which creatures qualify.
    #[serde(default)]
    pub target: TargetKind,
    /// Objects in its area take its damage too ("each creature and object"), square by square
    /// (DS-GAP-20); in Fray only area abilities (bursts, auras, cubes, lines).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub objects: bool,
    /// The characteristic(s) of the power roll (the highest is used); none: no roll.
    #[serde(default)]
    pub roll: Vec<Characteristic>,
    /// Tier 1 (11 or less), tier 2 (12-16), tier 3 (17+).
    #[serde(default)]
    pub tier1: TierDef,
    /// Tier 2.
    #[serde(default)]
    pub tier2: TierDef,
    /// Tier 3.
    #[serde(default)]
    pub tier3: TierDef,
    /// Effects that happen whatever the roll (after it).
    #[serde(default)]
    pub effect: Vec<EffectDef>,
    /// What it does, in our own words.
    #[serde(default)]
    pub text: String,
    /// Heroic Resource it costs (a hero's ability, DS-GAP-15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<i32>,
    /// Malice it costs (a Malice feature, `usage = "malice"`, DS-GAP-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub malice: Option<i32>,
}

fn one() -> i32 {
    1
}

impl AbilityDef {
    /// Whether it has the keyword.
    pub fn has(&self, k: &str) -> bool {
        self.keywords.iter().any(|x| x.eq_ignore_ascii_case(k))
    }
    /// A strike: targets specific creatures, not an area (DS-GAP-14).
    pub fn is_strike(&self) -> bool {
        self.has("strike")
            || (!self.distance.is_area() && !matches!(self.distance, Distance::Myself) && !self.roll.is_empty())
    }
    /// A melee ability.
    pub fn is_melee(&self) -> bool {
        self.has("melee") || matches!(self.distance, Distance::Melee { .. })
    }
    /// A ranged ability.
    pub fn is_ranged(&self) -> bool {
        self.has("ranged") || matches!(self.distance, Distance::Ranged { .. })
    }
    /// The tier definitions.
    pub fn tier(&self, t: usize) -> &TierDef {
        [&self.tier1, &self.tier2, &self.tier3][t.min(2)]
    }
    /// Whether any tier deals damage.
    pub fn deals_damage(&self) -> bool {
        [&self.tier1, &self.tier2, &self.tier3].iter().any(|t| t.damage > 0)
    }
}

/// A creature or hero stat block (DS-GAP-18).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatBlock {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// "hero" or "monster".
    pub kind: String,
    /// Level.
    #[serde(default = "one")]
    pub level: i32,
    /// Organization (monsters): minion, horde, platoon, elite, leader, solo.
    #[serde(default)]
    pub organization: Option<String>,
    /// Role (monsters).
    #[serde(default)]
    pub role: Option<String>,
    /// A hero's class, which names its Heroic Resource and how it is gained (DS-GAP-15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Maximum Stamina.
    pub stamina: i32,
    /// Recoveries (heroes).
    #[serde(default)]
    pub recoveries: i32,
    /// Speed.
    pub speed: i32,
    /// Size ("1M", "2"...).
    pub size: String,
    /// Stability.
    #[serde(default)]
    pub stability: i32,
    /// Free strike damage (monsters; heroes use the standard ones).
    #[serde(default)]
    pub free_strike: Option<i32>,
    /// Might, Agility, Reason, Intuition, Presence, each -5 to +5.
    pub characteristics: Characteristics,
    /// A minion's bonus while its squad has a captain (DS-GAP-19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_captain: Option<WithCaptain>,
    /// Damage immunities (DS-GAP-20): a damage type, or `damage` for every kind, and the amount
    /// taken off (or `"all"`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub immunities: std::collections::BTreeMap<String, Amount>,
    /// Damage weaknesses (DS-GAP-20), written as the immunities are.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub weaknesses: std::collections::BTreeMap<String, Amount>,
    /// Abilities.
    #[serde(default)]
    pub ability: Vec<AbilityDef>,
    /// A description in our own words.
    #[serde(default)]
    pub text: String,
}

/// The damage types (DS-GAP-20); `damage` in an immunity or weakness means every kind, untyped
/// damage included.
pub const DAMAGE_TYPES: [&str; 9] =
    ["acid", "cold", "corruption", "fire", "holy", "lightning", "poison", "psychic", "sonic"];

/// An immunity's or weakness's amount: a number, or `"all"` (the damage is ignored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// This much.
    Value(i32),
    /// A word: only `all` is meant.
    Word(String),
}

impl Amount {
    /// As a number: `all` is more than any damage can be.
    pub fn value(&self) -> Option<i32> {
        match self {
            Amount::Value(n) => Some(*n),
            Amount::Word(w) if w.eq_ignore_ascii_case("all") => Some(ALL_DAMAGE),
            Amount::Word(_) => None,
        }
    }
}

/// An immunity of `all`: more than any damage.
pub const ALL_DAMAGE: i32 = 1_000_000;

/// How a class's Heroic Resource grows at the start of each of the hero's turns (DS-GAP-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gain {
    /// A fixed amount.
    Flat(i32),
    /// A d3.
    D3,
}

/// The classes Fray knows: name, Heroic Resource, gain at the start of each turn (DS-GAP-15;
/// docs/rulings/drawsteel.md "Heroic Resources").
pub const CLASSES: [(&str, &str, Gain); 9] = [
    ("censor", "wrath", Gain::Flat(2)),
    ("conduit", "piety", Gain::D3),
    ("elementalist", "essence", Gain::Flat(2)),
    ("fury", "ferocity", Gain::D3),
    ("null", "discipline", Gain::Flat(2)),
    ("shadow", "insight", Gain::D3),
    ("tactician", "focus", Gain::Flat(2)),
    ("talent", "clarity", Gain::D3),
    ("troubadour", "drama", Gain::D3),
];

/// A class by name.
pub fn class(name: &str) -> Option<(&'static str, &'static str, Gain)> {
    CLASSES.iter().copied().find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))
}

/// What a minion gains while its squad has a captain (the stat block's "With Captain" line,
/// DS-GAP-19), as numbers Fray plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct WithCaptain {
    /// Extra speed.
    #[serde(default)]
    pub speed: i32,
    /// Extra damage on its strikes that deal damage (free strikes included).
    #[serde(default)]
    pub damage: i32,
    /// An edge on its strikes.
    #[serde(default)]
    pub edge: bool,
}

/// Characteristic scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Characteristics {
    /// Might.
    #[serde(default)]
    pub might: i32,
    /// Agility.
    #[serde(default)]
    pub agility: i32,
    /// Reason.
    #[serde(default)]
    pub reason: i32,
    /// Intuition.
    #[serde(default)]
    pub intuition: i32,
    /// Presence.
    #[serde(default)]
    pub presence: i32,
}

impl Characteristics {
    /// As an array in [`Characteristic::ALL`] order.
    pub fn array(&self) -> [i32; 5] {
        [self.might, self.agility, self.reason, self.intuition, self.presence]
    }
}

/// Parses a potency like "M<2" (DS-GAP-5).
pub fn parse_potency(s: &str) -> Option<(Characteristic, i32)> {
    let (c, v) = s.split_once('<')?;
    Some((Characteristic::parse(c)?, v.trim().parse().ok()?))
}

/// Checks a stat block; every problem, with the field it is in.
pub fn check_block(b: &StatBlock) -> Vec<String> {
    let mut errors = Vec::new();
    let field = |f: &str| format!("{} ({}): {f}", b.id, b.name);
    if b.id.trim().is_empty() {
        errors.push(format!("{}: a stat block needs an id", field("id")));
    }
    if b.kind != "hero" && b.kind != "monster" {
        errors.push(format!("{}: kind must be \"hero\" or \"monster\"", field("kind")));
    }
    // Issue 14: every number within the stated limits (docs/scenarios/drawsteel.md, "Limits").
    let mut range = |f: &str, v: i32, r: std::ops::RangeInclusive<i32>| {
        let r = (*r.start() as i64)..=(*r.end() as i64);
        errors.extend(fray_core::scenario::out_of_range(&field(f), v as i64, r));
    };
    range("level", b.level, 1..=10);
    range("stamina", b.stamina, 1..=limits::STAMINA);
    range("recoveries", b.recoveries, 0..=limits::COUNT);
    range("speed", b.speed, 0..=limits::SQUARES);
    range("stability", b.stability, 0..=limits::SQUARES);
    if let Some(w) = b.with_captain {
        range("with_captain.speed", w.speed, 0..=limits::SQUARES);
        range("with_captain.damage", w.damage, 0..=limits::DAMAGE);
    }
    if let Some(f) = b.free_strike {
        range("free_strike", f, 0..=limits::DAMAGE);
    }
    for (i, a) in b.ability.iter().enumerate() {
        let at = |f: &str| format!("ability[{i}] ({}).{f}", a.id);
        let sq = 0..=limits::SQUARES;
        let nums: Vec<(&str, i32, std::ops::RangeInclusive<i32>)> = match a.distance {
            Distance::Melee { reach } => vec![("reach", reach, 1..=limits::SQUARES)],
            Distance::Ranged { range } => vec![("range", range, 1..=limits::SQUARES)],
            Distance::Myself => vec![],
            Distance::Aura { size } | Distance::Burst { size } => vec![("size", size, 1..=limits::SQUARES)],
            Distance::Cube { size, within } | Distance::Wall { size, within } => {
                vec![("size", size, 1..=limits::SQUARES), ("within", within, sq.clone())]
            }
            Distance::Line { length, width } => {
                vec![("length", length, 1..=limits::SQUARES), ("width", width, 1..=limits::SQUARES)]
            }
            Distance::Sweep { shift, reach } => {
                vec![("shift", shift, 1..=limits::SQUARES), ("reach", reach, sq.clone())]
            }
        };
        for (n, v, r) in nums {
            range(&at(&format!("distance.{n}")), v, r);
        }
        range(&at("targets"), a.targets, 1..=limits::COUNT);
        for (t, tier) in [&a.tier1, &a.tier2, &a.tier3].iter().enumerate() {
            range(&at(&format!("tier{}.damage", t + 1)), tier.damage, 0..=limits::DAMAGE);
            for (j, e) in tier.effects.iter().enumerate() {
                effect_numbers(e, &at(&format!("tier{}.effects[{j}]", t + 1)), &mut range);
            }
        }
        for (j, e) in a.effect.iter().enumerate() {
            effect_numbers(e, &at(&format!("effect[{j}]")), &mut range);
        }
    }
    match Size::parse(&b.size) {
        Some(_) => {}
        None if b.size.trim().parse::<i64>().is_ok_and(|n| n > limits::SIZE as i64) => errors.push(format!(
            "{}: size {} is larger than {}, the largest Fray plays",
            field("size"),
            b.size.trim(),
            limits::SIZE
        )),
        None => errors.push(format!("{}: {:?} is not a size; write 1T, 1S, 1M, 1L, 2, 3...", field("size"), b.size)),
    }
    // DS-GAP-4: five characteristics, each from -5 to +5.
    for (n, v) in ["might", "agility", "reason", "intuition", "presence"].iter().zip(b.characteristics.array()) {
        if !(-5..=5).contains(&v) {
            errors.push(format!("{}: {v} is outside -5..5", field(&format!("characteristics.{n}"))));
        }
    }
    for (which, map) in [("immunities", &b.immunities), ("weaknesses", &b.weaknesses)] {
        for (k, v) in map {
            let at = field(&format!("{which}.{k}"));
            if k != "damage" && !DAMAGE_TYPES.contains(&k.as_str()) {
                errors.push(format!("{at}: not a damage type ({}, or damage for every kind)", DAMAGE_TYPES.join(", ")));
            }
            match v.value() {
                None => errors.push(format!("{at}: write a number or \"all\"")),
                Some(n) if n != ALL_DAMAGE && !(1..=limits::DAMAGE).contains(&n) => {
                    errors.push(format!("{at}: {n} is outside 1..{}", limits::DAMAGE))
                }
                _ => {}
            }
            if which == "weaknesses" && v.value() == Some(ALL_DAMAGE) {
                errors.push(format!("{at}: a weakness is a number"));
            }
        }
    }
    if b.with_captain.is_some() && b.organization.as_deref() != Some("minion") {
        errors.push(format!("{}: only minions have a With Captain bonus", field("with_captain")));
    }
    if let Some(c) = &b.class {
        if class(c).is_none() {
            let names: Vec<&str> = CLASSES.iter().map(|c| c.0).collect();
            errors.push(format!("{}: {c:?} is not a class Fray knows ({})", field("class"), names.join(", ")));
        }
        if b.kind != "hero" {
            errors.push(format!("{}: only heroes have a class", field("class")));
        }
    }
    if b.kind == "monster" && b.free_strike.is_none() {
        errors.push(format!("{}: monsters need a free strike value", field("free_strike")));
    }
    for (i, a) in b.ability.iter().enumerate() {
        for (t, tier) in [&a.tier1, &a.tier2, &a.tier3].iter().enumerate() {
            if let Some(k) = &tier.damage_type
                && !DAMAGE_TYPES.contains(&k.as_str())
            {
                errors.push(format!(
                    "{}: {k:?} is not a damage type ({})",
                    field(&format!("ability[{i}] ({}).tier{}.damage_type", a.id, t + 1)),
                    DAMAGE_TYPES.join(", ")
                ));
            }
            for (j, e) in tier.effects.iter().enumerate() {
                let at = || field(&format!("ability[{i}] ({}).tier{}.effects[{j}]", a.id, t + 1));
                check_effect(e, at, &mut errors);
            }
        }
        for (j, e) in a.effect.iter().enumerate() {
            check_effect(e, || field(&format!("ability[{i}] ({}).effect[{j}]", a.id)), &mut errors);
        }
        // DS-GAP-17: a Malice feature has a cost, and only Malice features have one.
        match (a.usage == Usage::Malice, a.malice) {
            (true, None) => errors.push(format!(
                "{}: a Malice feature (usage = \"malice\") needs its cost, malice = N",
                field(&format!("ability[{i}] ({}).malice", a.id))
            )),
            (false, Some(_)) => errors.push(format!(
                "{}: only a Malice feature (usage = \"malice\") has a Malice cost",
                field(&format!("ability[{i}] ({}).malice", a.id))
            )),
            (true, Some(n)) if !(1..=limits::COUNT).contains(&n) => errors.push(format!(
                "{}: {n} is outside 1..{}",
                field(&format!("ability[{i}] ({}).malice", a.id)),
                limits::COUNT
            )),
            _ => {}
        }
        if a.usage == Usage::Villain {
            let at = field(&format!("ability[{i}] ({}).usage", a.id));
            if !matches!(b.organization.as_deref(), Some("leader" | "solo")) {
                errors.push(format!("{at}: only leaders and solos have villain actions"));
            }
            let plain = matches!(
                a.distance,
                Distance::Myself
                    | Distance::Aura { .. }
                    | Distance::Burst { .. }
                    | Distance::Melee { .. }
                    | Distance::Ranged { .. }
            ) || (a.target == TargetKind::Myself && !a.distance.needs_square());
            if !plain {
                errors.push(format!(
                    "{at}: Fray plays villain actions that affect the user, an aura or burst around it, or melee or ranged targets, not {}",
                    a.distance
                ));
            }
        }
        if b.ability.iter().filter(|a| a.usage == Usage::Villain).count() > 3 && i == 0 {
            errors.push(format!("{}: a creature has at most three villain actions", field("ability")));
        }
        if let Some(n) = a.cost {
            let at = field(&format!("ability[{i}] ({}).cost", a.id));
            if b.kind != "hero" || b.class.is_none() {
                errors.push(format!("{at}: only a hero with a class pays Heroic Resource for an ability"));
            }
            if !(1..=limits::COUNT).contains(&n) {
                errors.push(format!("{at}: {n} is outside 1..{}", limits::COUNT));
            }
        }
        if a.usage == Usage::Malice && b.kind != "monster" {
            errors.push(format!(
                "{}: only the Director's creatures have Malice features",
                field(&format!("ability[{i}] ({}).usage", a.id))
            ));
        }
        if a.targets < 1 {
            errors.push(format!("{}: at least 1", field(&format!("ability[{i}] ({}).targets", a.id))));
        }
        if let Distance::Sweep { shift, reach } = a.distance
            && (shift < 1 || reach < 0)
        {
            errors.push(format!(
                "{}: a sweep shifts at least 1 square and reaches 0 or more (shift = {shift}, reach = {reach})",
                field(&format!("ability[{i}] ({}).distance", a.id))
            ));
        }
    }
    errors
}

/// The numbers of an effect within their limits.
fn effect_numbers(e: &EffectDef, at: &str, range: &mut impl FnMut(&str, i32, std::ops::RangeInclusive<i32>)) {
    for (n, v) in [("push", e.push), ("pull", e.pull), ("slide", e.slide), ("teleport", e.teleport)] {
        if let Some(v) = v {
            range(&format!("{at}.{n}"), v, 0..=limits::SQUARES);
        }
    }
    for (n, v) in [("temporary_stamina", e.temporary_stamina), ("heal", e.heal)] {
        if let Some(v) = v {
            range(&format!("{at}.{n}"), v, 0..=limits::STAMINA);
        }
    }
}

/// The stated limits of the numbers in stat blocks, scenario units and maps (issue 14; listed
/// in docs/scenarios/drawsteel.md, "Limits"). Within them no game arithmetic overflows.
pub mod limits {
    /// Squares per side of the largest creature or object.
    pub const SIZE: i32 = 10;
    /// Stamina, healing and temporary Stamina.
    pub const STAMINA: i32 = 9999;
    /// Damage of a tier or a free strike.
    pub const DAMAGE: i32 = 999;
    /// Distances, speed, stability, forced movement, heights.
    pub const SQUARES: i32 = 99;
    /// How high a creature stands or flies, in squares (a fall of 250 squares is a scenario).
    pub const HEIGHT: i32 = 999;
    /// Counts: recoveries, targets, surges, victories.
    pub const COUNT: i32 = 99;
    /// Creatures in one combat (each is indexed by a byte).
    pub const UNITS: usize = 100;
    /// Rows and columns of a map.
    pub const MAP_SIDE: usize = 100;
}

/// `at` words where the effect is, asked only for an error.
fn check_effect(e: &EffectDef, at: impl Fn() -> String, errors: &mut Vec<String>) {
    if let Some(c) = &e.condition
        && ConditionKind::parse(c).is_none()
    {
        errors.push(format!("{}.condition: unknown condition {c:?}", at()));
    }
    if let Some(u) = &e.until
        && !matches!(u.as_str(), "eot" | "save-ends" | "encounter")
    {
        errors.push(format!("{}.until: use eot, save-ends or encounter, not {u:?}", at()));
    }
    if let Some(p) = &e.potency
        && parse_potency(p).is_none()
    {
        errors.push(format!("{}.potency: write it like \"M<2\", not {p:?}", at()));
    }
}
