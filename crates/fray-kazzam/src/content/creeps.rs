//! Creep stat blocks (K-CRP, K-CTYPE) as content: the compiled-in file, its parser and the
//! powers its actions are played through. The Creeps' rules are in [`crate::rules::creeps`].

use crate::content::powers::{Effect, PowerDef};
use serde::{Deserialize, Serialize};

/// The compiled-in stat blocks.
pub const FILE: &str = "content/kazzam/creeps.toml";
/// The compiled-in stat blocks.
pub const TEXT: &str = include_str!("../../../../content/kazzam/creeps.toml");

/// The Rust-played parts of Creep actions a stat block may name.
pub const ACTION_HOOKS: &[&str] = &[
    "beckon",
    "repel",
    "questgiver",
    "parent",
    "oppressor",
    "life-and-death",
    "hunting-arrow",
    "twin-strike",
    "lullaby",
    "raise-aegis",
    "raise-shade",
    "trample",
    // The Love Beast's (rules/creeps/love_beast.rs).
    "pain-of-eros",
    // The Chuck's and the Minotaur's (rules/creeps/).
    "reload",
    "chuck",
    "throw-orb",
    "gore",
    "plow",
    "rampage",
    // The imps, squids, jellies and the Molesnake (rules/creep_tricks.rs).
    "pilfer",
    "parry",
    "pin",
    "tonic",
    "regenerate",
    "drag",
    "drag-if-weakened",
    "drag-if-prone",
    "snatch",
    "steal",
    "drag-under",
    "bury-apart",
    "mesmerize",
    "drift",
];

/// A Creep type (K-CTYPE-1..6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CreepType {
    /// Alone, 5N HP, base 3.
    Champion,
    /// Groups of 2, 3N HP, base 3.
    Elite,
    /// Groups of 3, 2N HP, base 2.
    Standard,
    /// Damage threshold 4, groups of N+1, base 2.
    Goon,
    /// 1 HP, groups of 2N+2, base 1.
    Stooge,
    /// 1 HP, groups of 5N+5, base 1.
    Scab,
}

/// A Goon's damage threshold (K-CTYPE-4).
pub const GOON_THRESHOLD: i32 = 4;

impl CreepType {
    /// Maximum HP with `n` players a team (K-CTYPE). A Goon is kept at its threshold while
    /// unhurt and drops to 1 once wounded (K-CTYPE-4, played in the damage rules).
    pub fn hp(self, n: i32) -> i32 {
        match self {
            CreepType::Champion => 5 * n,
            CreepType::Elite => 3 * n,
            CreepType::Standard => 2 * n,
            CreepType::Goon => GOON_THRESHOLD,
            CreepType::Stooge | CreepType::Scab => 1,
        }
        .max(1)
    }
    /// How many Creeps a group of this type holds with `n` players a team (K-CTYPE-1..6).
    pub fn group_size(self, n: i32) -> i32 {
        match self {
            CreepType::Champion => 1,
            CreepType::Elite => 2,
            CreepType::Standard => 3,
            CreepType::Goon => n + 1,
            CreepType::Stooge => 2 * n + 2,
            CreepType::Scab => 5 * n + 5,
        }
    }
    /// Its base damage (K-CTYPE-1..6): what a Mob's doubling doubles (K-MULTI-6).
    pub fn base_damage(self) -> i32 {
        match self {
            CreepType::Champion | CreepType::Elite => 3,
            CreepType::Standard | CreepType::Goon => 2,
            CreepType::Stooge | CreepType::Scab => 1,
        }
    }
    /// Its place in the strength order, higher first (K-CTYPE-10, K-MULTI-4).
    pub fn strength(self) -> i32 {
        match self {
            CreepType::Champion => 5,
            CreepType::Elite => 4,
            CreepType::Standard => 3,
            CreepType::Goon => 2,
            CreepType::Stooge => 1,
            CreepType::Scab => 0,
        }
    }
    /// Its saving throws: `Some(true)` always succeed (Champion), `Some(false)` always fail
    /// (Stooge), `None` rolled (K-SAVE-4, K-CTYPE-1, K-CTYPE-5). Scabs are read like Stooges.
    pub fn save(self) -> Option<bool> {
        match self {
            CreepType::Champion => Some(true),
            CreepType::Stooge | CreepType::Scab => Some(false),
            _ => None,
        }
    }
}

/// Whom a Creep action reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CreepTarget {
    /// One enemy within reach.
    Melee,
    /// One enemy within `range`.
    Ranged,
    /// Everyone around it within `range` (`to` says whom).
    Burst,
    /// No attack: it acts on itself or its group.
    Myself,
}

/// One line of a Creep's d6 action table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreepAction {
    /// The faces it covers: `"1-2"` or `"6"`.
    pub rolls: String,
    /// Name as printed.
    pub name: String,
    /// Melee, ranged or burst.
    pub target: CreepTarget,
    /// A ranged action's range, or a burst's radius.
    #[serde(default)]
    pub range: Option<i32>,
    /// Damage dealt (no attack roll, K-CRP-4).
    #[serde(default)]
    pub damage: Option<i32>,
    /// The Effect line, in the powers' Effect vocabulary.
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// A burst's targets: `non-creeps` (everyone but Creeps, the default) or `enemies` (those
    /// on its group's Enemies List).
    #[serde(default)]
    pub to: Option<String>,
    /// Targets standing inside the Creep fail the Effect's save with no roll (Screech).
    #[serde(default)]
    pub inside_fails: bool,
    /// A rule written in Rust after the damage and Effect: `beckon` (the target walks its speed
    /// toward the Creep), `repel` (away from it); the imps', squids' and jellies' own
    /// (rules/creep_tricks.rs): `pilfer`, `parry`, `pin`, `tonic`, `regenerate`, `drag`,
    /// `drag-if-weakened`, `drag-if-prone`, `snatch`, `steal`.
    #[serde(default)]
    pub hook: Option<String>,
    /// Part of it is not played yet (see the text and the rulings).
    #[serde(default)]
    pub reference_only: bool,
    /// What it does, in our own words.
    pub text: String,
    /// First and last face, parsed from `rolls`.
    #[serde(skip)]
    pub faces: (i32, i32),
}

/// One line of a Creep's Miss Trigger (K-CAI-18): what it does to the attacker that missed it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissLine {
    /// `adjacent` (the attacker is next to it or inside it), `far` (it is not), or any (unset).
    #[serde(default)]
    pub when: Option<String>,
    /// Damage to the attacker.
    #[serde(default)]
    pub damage: Option<i32>,
    /// The Effect on the attacker, in the powers' Effect vocabulary (the Creep is the user).
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// A rule in Rust: `opportunity` (the group's Creep `by` takes an Opportunity on the
    /// attacker), `grab-all` (every Creep of its group next to the attacker Grabs it), `no-attack`
    /// (the attacker may not attack this Creep until the end of its next turn), `beckon` (the
    /// attacker walks toward it), `charm` (one of its actions at random), `bounty` (K-SCO-10),
    /// `steal` (it takes every orb the attacker holds), `hide` (it is Hidden until the round ends).
    #[serde(default)]
    pub hook: Option<String>,
    /// The group member whose Opportunity it is (`opportunity`).
    #[serde(default)]
    pub by: Option<String>,
}

/// The Rust-played Miss Trigger parts a stat block may name.
pub const MISS_HOOKS: &[&str] =
    &["opportunity", "grab-all", "no-attack", "beckon", "charm", "bounty", "chuck", "charge", "steal", "hide"];

/// A Creep's stat block.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreepDef {
    /// Id used in scenario units (`what = "guardian-bear"`).
    pub id: String,
    /// Name as printed.
    pub name: String,
    /// Its type (K-CTYPE).
    #[serde(rename = "type")]
    pub kind: CreepType,
    /// Footprint size.
    pub size: i32,
    /// Speed in squares.
    pub speed: i32,
    /// Melee reach (1 unless given).
    #[serde(default)]
    pub reach: Option<i32>,
    /// Range of its ranged actions, for look-up.
    #[serde(default)]
    pub range: Option<i32>,
    /// Where the rulebook prints it.
    pub source: String,
    /// Its traits, as text (not played yet).
    #[serde(default)]
    pub traits: String,
    /// Its Miss Trigger, as text (not played yet).
    #[serde(default)]
    pub miss_trigger: String,
    /// A Mob (K-CTYPE-8): it shares squares, neither grants nor takes Opportunities, cannot be
    /// flanked, and area attacks that can reach several of its squares deal double base damage.
    #[serde(default)]
    pub mob: bool,
    /// A Team member (K-CTYPE-7), with its Team's name (`imp-team`): its group rolls nothing and
    /// each member takes its own action (its table has one line covering 1-6), top to bottom.
    /// A map's group is the first members of the Team in file order.
    #[serde(default)]
    pub team: Option<String>,
    /// A Packmaster (K-CTYPE-9): its group's credit follows K-SCO-9.
    #[serde(default)]
    pub packmaster: bool,
    /// Attacks a round: a Champion's two (K-CTYPE-1) unless its stat block says otherwise.
    #[serde(default)]
    pub attacks: Option<i32>,
    /// Dual Focus: on a roll of 3-6 it attacks its first two priorities, one each.
    #[serde(default)]
    pub dual_focus: bool,
    /// Squares taken off any forced movement on it (Heavyweight, K-FM-9); `immovable` takes all.
    #[serde(default)]
    pub forced_reduction: i32,
    /// Immune to forced movement and teleportation, never Prone (Immovable, K-FM-9).
    #[serde(default)]
    pub immovable: bool,
    /// HP added to (or taken off) the type's (Warded: -5).
    #[serde(default)]
    pub hp_bonus: i32,
    /// Ward it starts with.
    #[serde(default)]
    pub ward: i32,
    /// Hover: terrain means nothing to it (played as the Hovering status from the start).
    #[serde(default)]
    pub hover: bool,
    /// Resist against attacks made from further than `far_resist.1` squares (the bear's shield).
    #[serde(default)]
    pub far_resist: Option<(i32, i32)>,
    /// Statuses it never takes, by name (the Charioteer's; `prone` for the Royal Golem).
    #[serde(default)]
    pub immune: Vec<String>,
    /// An aura: `leave` (Aura of Desire: an enemy leaving a square next to it) or `enter` (Aura
    /// of Fear: entering one) loses 2 HP and the Creep gains 2 Ward, once a turn.
    #[serde(default)]
    pub aura: Option<String>,
    /// Ward gained as it starts to act each round (the Aegis: 3).
    #[serde(default)]
    pub turn_ward: i32,
    /// Retaliate from the start (the Thunderbolt: 1).
    #[serde(default)]
    pub retaliate: i32,
    /// Its enemies within its reach count as Marked by it (the Imp Fighter; K-OPP-6).
    #[serde(default)]
    pub reach_marks: bool,
    /// Damage its Opportunities deal beyond the usual (the Imp Fighter: 1).
    #[serde(default)]
    pub opportunity_extra: i32,
    /// Return to the Swarm (the Vampiric Swarm): HP one Creep of this stat block regains when an
    /// enemy saves against a status one of them gave it.
    #[serde(default)]
    pub swarm_return: i32,
    /// A family of stat blocks a map places as one group, one of each in turn (the Crowned
    /// Birds: `crowned-bird`, one bird of each crown).
    #[serde(default)]
    pub family: Option<String>,
    /// Only a creature next to it can damage it (the Imp Flamestaff).
    #[serde(default)]
    pub near_harm_only: bool,
    /// While it holds an enemy Grabbed, every other enemy attacks it with Disadvantage (the Imp
    /// Grappler).
    #[serde(default)]
    pub grapple_guard: bool,
    /// Heedless Rush (the Minotaur): its Charges grant no Opportunities.
    #[serde(default)]
    pub heedless: bool,
    /// Wild Card (the Minotaur): it goes for the farthest enemy it can Charge and lines up the
    /// longest Charge (rules/creeps/minotaur.rs).
    #[serde(default)]
    pub wild_card: bool,
    /// Moving Cover (the Chuck): a Block beside it goes along when it walks.
    #[serde(default)]
    pub moving_cover: bool,
    /// Passive Behavior (K-CAI-16): the action hook it plays when it has no target (`reload`).
    #[serde(default)]
    pub passive: Option<String>,
    /// Multiple Eyes (the Charm Ball): the rolled charm, then each lower one on the next enemy.
    #[serde(default)]
    pub multiple_eyes: bool,
    /// The Huntress: 1 more damage (attacks and Opportunities) on Bloodied enemies, which come
    /// first after the orb's holder.
    #[serde(default)]
    pub hunts_bloodied: bool,
    /// The Harpist: Ward given to every athlete ending its turn in the Dungeon while not an enemy
    /// of its group.
    #[serde(default)]
    pub dungeon_ward: i32,
    /// One of several heads of one creature (the Two-Headed Molesnake): the group's heads share
    /// one pool of HP, and a head taking 6 or more damage in a round retreats (Retreat).
    #[serde(default)]
    pub heads: bool,
    /// Whom it goes for first once it has enemies: `carriers` (the Imp Thief: those holding an
    /// orb, before its usual priorities).
    #[serde(default)]
    pub prefers: Option<String>,
    /// Its Miss Trigger as played (K-CAI-18); empty: text only.
    #[serde(default)]
    pub miss: Vec<MissLine>,
    /// The d6 action table.
    pub action: Vec<CreepAction>,
}

impl CreepDef {
    /// Its maximum HP with `n` players a team.
    pub fn hp(&self, n: i32) -> i32 {
        (self.kind.hp(n) + self.hp_bonus).max(1)
    }
    /// Attacks it makes a round (K-CTYPE-1: a Champion two).
    pub fn attacks(&self) -> i32 {
        self.attacks.unwrap_or(if self.kind == CreepType::Champion { 2 } else { 1 })
    }
    /// The action for face `face` (1-6).
    pub fn action_for(&self, face: i32) -> Option<usize> {
        self.action.iter().position(|a| a.faces.0 <= face && face <= a.faces.1)
    }
    /// The id of the power an action is played through.
    pub fn power_id(&self, i: usize) -> String {
        format!("{}-{}", self.id, slug(&self.action[i].name))
    }
}

fn slug(s: &str) -> String {
    s.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreepFile {
    creep: Vec<CreepDef>,
}

/// Parses a stat-block file; errors name the file, the line and the field.
pub fn parse(file: &str, text: &str) -> Result<Vec<CreepDef>, String> {
    let mut parsed: CreepFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    for c in &mut parsed.creep {
        let line = text.lines().position(|l| l.trim() == format!("id = {:?}", c.id)).map_or(0, |i| i + 1);
        let at = |field: String, msg: String| format!("{file}, line {line}, creep {:?}, {field}: {msg}", c.id);
        let mut covered = [false; 7];
        for (i, a) in c.action.iter_mut().enumerate() {
            let (lo, hi) = match a.rolls.split_once('-') {
                Some((l, h)) => (l.trim().parse().unwrap_or(0), h.trim().parse().unwrap_or(0)),
                None => {
                    let v = a.rolls.trim().parse().unwrap_or(0);
                    (v, v)
                }
            };
            if !(1..=6).contains(&lo) || !(lo..=6).contains(&hi) {
                return Err(at(format!("action[{i}].rolls"), format!("{:?} is not a face or range of 1-6", a.rolls)));
            }
            for f in lo..=hi {
                if covered[f as usize] {
                    return Err(at(format!("action[{i}].rolls"), format!("face {f} is listed twice")));
                }
                covered[f as usize] = true;
            }
            a.faces = (lo, hi);
            if let Some(h) = a.hook.as_deref().filter(|h| !ACTION_HOOKS.contains(h)) {
                return Err(at(
                    format!("action[{i}].hook"),
                    format!("no hook {h:?}; known: {}", ACTION_HOOKS.join(", ")),
                ));
            }
            if let Some(t) = a.to.as_deref().filter(|t| !matches!(*t, "non-creeps" | "enemies")) {
                return Err(at(format!("action[{i}].to"), format!("{t:?}: use non-creeps or enemies")));
            }
            if matches!(a.target, CreepTarget::Ranged | CreepTarget::Burst) && a.range.is_none() {
                return Err(at(format!("action[{i}].range"), "a ranged or burst action needs its range".into()));
            }
        }
        if let Some(f) = (1..=6).find(|&f| !covered[f]) {
            return Err(at("action".into(), format!("no action for a roll of {f}")));
        }
        if let Some(a) = c.aura.as_deref().filter(|a| !matches!(*a, "leave" | "enter")) {
            return Err(at("aura".into(), format!("{a:?}: use leave or enter")));
        }
        if let Some(i) = c.immune.iter().find(|i| crate::engine::records::statuses::StatusKind::parse(i).is_none()) {
            return Err(at("immune".into(), format!("no status {i:?}")));
        }
        for (i, m) in c.miss.iter().enumerate() {
            if let Some(h) = m.hook.as_deref().filter(|h| !MISS_HOOKS.contains(h)) {
                return Err(at(format!("miss[{i}].hook"), format!("no hook {h:?}; known: {}", MISS_HOOKS.join(", "))));
            }
            if let Some(w) = m.when.as_deref().filter(|w| !matches!(*w, "adjacent" | "far")) {
                return Err(at(format!("miss[{i}].when"), format!("{w:?}: use adjacent or far")));
            }
        }
        if c.team.is_some() && c.action.len() != 1 {
            return Err(at("action".into(), "a Team member has exactly one action, covering 1-6".into()));
        }
        if !(1..=4).contains(&c.size) {
            return Err(at("size".into(), "size must be 1 to 4".into()));
        }
    }
    Ok(parsed.creep)
}

/// Every Creep action as a power (group `creep`, no class or role), so its damage and Effect go
/// through the powers' own Effect code and journal lines name it.
pub fn add_powers(p: &mut crate::content::powers::Powers, creeps: &[CreepDef]) -> Result<(), String> {
    for c in creeps {
        if !c.miss.is_empty() {
            let effect: Vec<Effect> = c.miss.iter().flat_map(|m| m.effect.clone()).collect();
            let def: PowerDef = serde_json::from_value(serde_json::json!({
                "id": format!("{}-miss-trigger", c.id),
                "name": "Miss Trigger",
                "action": "reaction",
                "target": { "kind": "melee" },
                "effect": effect,
                "text": c.miss_trigger,
                "group": "creep",
                "source": c.source,
                "rules": ["K-CAI-18"],
            }))
            .map_err(|e| format!("{FILE}: creep {:?}, miss: {e}", c.id))?;
            p.add(def).map_err(|e| format!("{FILE}: {e}"))?;
        }
        for (i, a) in c.action.iter().enumerate() {
            let target = match a.target {
                CreepTarget::Melee => serde_json::json!({ "kind": "melee" }),
                CreepTarget::Ranged => serde_json::json!({ "kind": "ranged", "range": a.range.unwrap_or(1) }),
                CreepTarget::Burst => serde_json::json!({ "kind": "burst", "radius": a.range.unwrap_or(1) }),
                CreepTarget::Myself => serde_json::json!({ "kind": "myself" }),
            };
            let def: PowerDef = serde_json::from_value(serde_json::json!({
                "id": c.power_id(i),
                "name": a.name,
                "action": "attack",
                "target": target,
                "effect": a.effect,
                "text": a.text,
                "group": "creep",
                "source": c.source,
                "rules": ["K-CRP-4", "K-CRP-5"],
            }))
            .map_err(|e| format!("{FILE}: creep {:?}, action {:?}: {e}", c.id, a.name))?;
            p.add(def).map_err(|e| format!("{FILE}: {e}"))?;
        }
    }
    Ok(())
}
