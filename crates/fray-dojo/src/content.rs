//! Content as data: the Forms with their action dice, abilities and Unique Actions, the Basic
//! Actions and the token kinds, read from the TOML files under `content/dojo/` (compiled in).
//! A file that does not read is refused with its name, line and field.

use fray_core::lookup::Entry;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

pub mod boss_file;
pub mod enemy_file;
pub mod stake_file;

/// What a unit is (D-EN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A player's hero.
    Hero,
    /// One Stance, one bar (D-EN-2).
    Warrior,
    /// Several Stances and bars, a new Stance each turn (D-EN-11..14).
    Boss,
    /// A Stooge group: one unit with one shared bar, a member a die (D-EN-3..D-EN-10).
    Stooges,
}

/// Which action: a Basic Action or a Form's Unique Action, by place in the content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionKey {
    /// The n-th Basic Action.
    Basic(u8),
    /// Form `f`'s n-th Unique Action.
    Form(u8, u8),
    /// Style `s`'s n-th Unique Action.
    Style(u8, u8),
    /// The Stooges' Reinforcements (D-EN-8).
    Reinforcements,
}

/// The compiled-in content files, by name.
pub const BUILTIN: &[(&str, &str)] = &[
    ("dojo/forms.toml", include_str!("../../../content/dojo/forms.toml")),
    ("dojo/styles.toml", include_str!("../../../content/dojo/styles.toml")),
    ("dojo/actions.toml", include_str!("../../../content/dojo/actions.toml")),
    ("dojo/tokens.toml", include_str!("../../../content/dojo/tokens.toml")),
    ("dojo/builds.toml", include_str!("../../../content/dojo/builds.toml")),
    ("dojo/encounter.toml", include_str!("../../../content/dojo/encounter.toml")),
    ("dojo/enemies.toml", include_str!("../../../content/dojo/enemies.toml")),
    ("dojo/stakes.toml", include_str!("../../../content/dojo/stakes.toml")),
];

/// The twelve kinds of token (D-TOK-*). Challenge is held as a name, not a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Token {
    /// D-TOK-1.
    Iron,
    /// D-TOK-2.
    Power,
    /// D-TOK-3.
    Speed,
    /// D-TOK-4 (held as a unit's `challenge`).
    Challenge,
    /// D-TOK-5.
    Burning,
    /// D-TOK-6.
    Weakness,
    /// D-TOK-7.
    Control,
    /// D-TOK-8.
    Chaos,
    /// D-TOK-9.
    Inspired,
    /// D-TOK-10.
    Training,
    /// D-TOK-11.
    Stun,
    /// D-TOK-12.
    Favor,
}

/// Every token kind, in the order tokens are listed and counted.
pub const TOKENS: [Token; 12] = [
    Token::Iron,
    Token::Power,
    Token::Speed,
    Token::Challenge,
    Token::Burning,
    Token::Weakness,
    Token::Control,
    Token::Chaos,
    Token::Inspired,
    Token::Training,
    Token::Stun,
    Token::Favor,
];

impl Token {
    /// Its place in [`TOKENS`].
    pub fn index(self) -> usize {
        self as usize
    }
    /// Its id as files write it.
    pub fn id(self) -> &'static str {
        match self {
            Token::Iron => "iron",
            Token::Power => "power",
            Token::Speed => "speed",
            Token::Challenge => "challenge",
            Token::Burning => "burning",
            Token::Weakness => "weakness",
            Token::Control => "control",
            Token::Chaos => "chaos",
            Token::Inspired => "inspired",
            Token::Training => "training",
            Token::Stun => "stun",
            Token::Favor => "favor",
        }
    }
    /// The token called `id`.
    pub fn parse(id: &str) -> Option<Token> {
        TOKENS.iter().copied().find(|t| t.id() == id)
    }
    /// Iron, Power and Speed (D-TOK-0).
    pub fn basic(self) -> bool {
        matches!(self, Token::Iron | Token::Power | Token::Speed)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The obstacles Fray plays (D-OBS-0; Edges lie beyond the map). A Copy is named here for the
/// effects that place one; the map's squares never hold it: Copies are kept with their
/// Originals (the copies module), so a Copy may stand in Fog or on Rubble as a unit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Obstacle {
    /// D-OBS-6: full, blocks sight.
    Wall,
    /// D-OBS-4: ends forced movement, costs 1 more Speed.
    Rubble,
    /// D-OBS-5: 1 damage on entering and at the end of every turn.
    Trap,
    /// D-OBS-3: enemies in or next to it are targeted only from 1 space.
    Fog,
    /// D-OBS-2: an Edge inside the map (Black Hole): empty, but whoever enters it goes over it.
    Edge,
    /// D-OBS-1: a Copy of the unit placing it (never on the map grid itself).
    Copy,
}

impl Obstacle {
    /// Its map character.
    pub fn glyph(self) -> char {
        match self {
            Obstacle::Wall => '#',
            Obstacle::Rubble => '%',
            Obstacle::Trap => '^',
            Obstacle::Fog => '~',
            Obstacle::Edge => 'O',
            Obstacle::Copy => 'C',
        }
    }
    /// The obstacle drawn as `c` in a map row (D-TERR-1: never a Copy).
    pub fn of_glyph(c: char) -> Option<Obstacle> {
        [Obstacle::Wall, Obstacle::Rubble, Obstacle::Trap, Obstacle::Fog, Obstacle::Edge]
            .into_iter()
            .find(|o| o.glyph() == c)
    }
}

/// One die of a Stance: rolled, or a fixed number (Zen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Die {
    /// A die of this many faces.
    Roll(u32),
    /// A number put in the pool as it is.
    Fixed(i32),
}

impl Die {
    /// Reads "d8" or "7".
    pub fn parse(s: &str) -> Option<Die> {
        let s = s.trim();
        match s.strip_prefix('d') {
            Some(n) => n.parse().ok().filter(|&n: &u32| (2..=100).contains(&n)).map(Die::Roll),
            None => s.parse().ok().filter(|n: &i32| (0..=20).contains(n)).map(Die::Fixed),
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Die::Roll(n) => write!(f, "d{n}"),
            Die::Fixed(n) => write!(f, "{n}"),
        }
    }
}

impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Die::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("{s:?} is not a die: write d4..d100 or 0..20")))
    }
}

/// What an action costs (D-ACT-1, D-ACT-4, D-ACT-6, D-ACT-7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Cost {
    /// One number at or above the lowest gate; tiered when there are several gates.
    Gates(Vec<i32>),
    /// Any number (X).
    X,
    /// Tokens of one kind.
    Tokens(Token, u32),
    /// Basic tokens of any kinds.
    Basic(u32),
    /// Basic tokens of the kinds listed, in any mix ("3 speed|iron", Ghost Walk).
    Mix(Vec<Token>, u32),
    /// Two numbers, each at or above this (Perfect Strike, "3+ and 3+").
    Pair(i32),
    /// Gaining tokens ("gain 1 burning", Ignition): a token action.
    GainTokens(Token, u32),
    /// HP from the health bar, never the Shield ("2 hp", Lash Out, L1499): a token action.
    Hp(u32),
    /// Breaking the user's own Shield ("shield", Symphony): a token action.
    Shield,
    /// Breaking one of the user's own Copies (...Now You Don't, Shatter): a token action.
    Copy,
}

impl Cost {
    /// Reads "3+", "1+/4+", "X", "3 speed", "2 basic".
    pub fn parse(s: &str) -> Option<Cost> {
        let s = s.trim();
        if s == "X" {
            return Some(Cost::X);
        }
        if s == "copy" {
            return Some(Cost::Copy);
        }
        if s == "shield" {
            return Some(Cost::Shield);
        }
        if let Some((a, b)) = s.split_once(" and ") {
            let a: i32 = a.trim().strip_suffix('+')?.parse().ok().filter(|n| (1..=20).contains(n))?;
            let b: i32 = b.trim().strip_suffix('+')?.parse().ok()?;
            return (a == b).then_some(Cost::Pair(a));
        }
        if let Some(rest) = s.strip_prefix("gain ") {
            let (n, t) = rest.split_once(' ')?;
            let n: u32 = n.parse().ok().filter(|n| (1..=9).contains(n))?;
            return Token::parse(t.trim()).map(|t| Cost::GainTokens(t, n));
        }
        if let Some((n, what)) = s.split_once(' ') {
            if what.trim() == "hp" {
                return n.parse().ok().filter(|n| (1..=9).contains(n)).map(Cost::Hp);
            }
            if what.contains('|') {
                let n: u32 = n.parse().ok().filter(|n| (1..=9).contains(n))?;
                let kinds: Option<Vec<Token>> =
                    what.split('|').map(|t| Token::parse(t.trim()).filter(|t| t.basic())).collect();
                return kinds.map(|k| Cost::Mix(k, n));
            }
            let n: u32 = n.parse().ok().filter(|n| (1..=9).contains(n))?;
            return match what.trim() {
                "basic" => Some(Cost::Basic(n)),
                t => Token::parse(t).filter(|t| t.basic()).map(|t| Cost::Tokens(t, n)),
            };
        }
        let gates: Option<Vec<i32>> = s
            .split('/')
            .map(|g| g.trim().strip_suffix('+').and_then(|n| n.parse().ok()).filter(|n| (1..=20).contains(n)))
            .collect();
        let gates = gates?;
        (!gates.is_empty() && gates.windows(2).all(|w| w[0] < w[1])).then_some(Cost::Gates(gates))
    }
    /// Whether a number pays for it.
    pub fn by_number(&self) -> bool {
        matches!(self, Cost::Gates(_) | Cost::X | Cost::Pair(_))
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cost::Gates(g) => {
                let parts: Vec<String> = g.iter().map(|n| format!("{n}+")).collect();
                f.write_str(&parts.join("/"))
            }
            Cost::X => f.write_str("X"),
            Cost::Tokens(t, n) => write!(f, "{n} {t}"),
            Cost::Basic(n) => write!(f, "{n} basic"),
            Cost::Mix(k, n) => {
                let ids: Vec<&str> = k.iter().map(|t| t.id()).collect();
                write!(f, "{n} {}", ids.join("|"))
            }
            Cost::Pair(n) => write!(f, "{n}+ and {n}+"),
            Cost::GainTokens(t, n) => write!(f, "gain {n} {t}"),
            Cost::Hp(n) => write!(f, "{n} hp"),
            Cost::Shield => f.write_str("shield"),
            Cost::Copy => f.write_str("copy"),
        }
    }
}

impl<'de> Deserialize<'de> for Cost {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Cost::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{s:?} is not a cost: write \"3+\", \"1+/4+/7+\", \"3+ and 3+\", \"X\", \"3 speed\", \"2 basic\", \"3 speed|iron\", \"2 hp\", \"gain 1 burning\", \"shield\" or \"copy\""
            ))
        })
    }
}

/// A number in an effect: fixed, or the X an X action was paid with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Num {
    /// This many.
    N(i32),
    /// The number spent.
    X,
    /// The number spent plus (or minus) this, never below 0 ("x-2", "x+1").
    XPlus(i32),
    /// The tokens the effect's target holds, a Challenge counted (Apply Pressure).
    Held,
    /// How many units this action has picked so far (Twilight Sorrow's Speed).
    Picked,
}

impl Num {
    /// Its value when `x` was spent (Held and Picked are counted by the rules; here 0).
    pub fn of(self, x: i32) -> i32 {
        match self {
            Num::N(n) => n,
            Num::X => x,
            Num::XPlus(k) => (x + k).max(0),
            Num::Held | Num::Picked => 0,
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(i64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) if (0..=20).contains(&n) => Ok(Num::N(n as i32)),
            Raw::N(n) => Err(serde::de::Error::custom(format!("{n} is outside 0..=20"))),
            Raw::S(s) if s == "x" => Ok(Num::X),
            Raw::S(s) if s == "held" => Ok(Num::Held),
            Raw::S(s) if s == "picked" => Ok(Num::Picked),
            Raw::S(s) if s.starts_with("x+") || s.starts_with("x-") => {
                let k: i32 = s[2..].parse().map_err(|_| serde::de::Error::custom(format!("{s:?}: write x+N")))?;
                Ok(Num::XPlus(if s.as_bytes()[1] == b'-' { -k } else { k }))
            }
            Raw::S(s) => Err(serde::de::Error::custom(format!(
                "{s:?}: write a number, \"x\", \"x+N\", \"x-N\", \"held\" or \"picked\""
            ))),
        }
    }
}

/// Whom an effect picks (D-RNG-*): "in range" is the Stance's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// The user.
    Me,
    /// The unit the effect before picked.
    Same,
    /// One enemy in range.
    Enemy,
    /// One enemy in range this action has not picked yet.
    NewEnemy,
    /// Every enemy in range.
    Enemies,
    /// One enemy you can see, at any distance.
    EnemySeen,
    /// Every enemy you can see.
    EnemiesSeen,
    /// Any number of enemies you can see, picked one by one (D-BA-8).
    SomeEnemiesSeen,
    /// One enemy 1 to 4 spaces away (D-BA-6).
    #[serde(rename = "enemy-within-4")]
    EnemyWithin4,
    /// One ally in range, you included (D-RNG-1).
    Ally,
    /// One ally you can see, you included.
    AllySeen,
    /// One ally in range down at 0 HP (D-BA-9).
    FallenAlly,
    /// Anyone in range, you included.
    Anyone,
    /// Anyone next to you (D-BA-3).
    Adjacent,
    /// One enemy next to you.
    AdjacentEnemy,
    /// You and every ally in range.
    Allies,
    /// Everyone in range but you, friend or foe.
    Everyone,
    /// Everyone next to you, friend or foe.
    EveryoneAdjacent,
    /// Every enemy in Fog or next to it, anywhere (Twilight Sorrow, L1987).
    EnemiesInFog,
    /// One enemy you can see that moved this turn (Watch Your Step).
    EnemySeenMoved,
    /// One enemy you can see beyond your longest range (Welcome To My Maze).
    EnemyBeyond,
    /// One enemy holding your Challenge, anywhere (Not Good Enough).
    Challenged,
    /// Every enemy next to a Wall, anywhere (Icicle Fall).
    EnemiesByWall,
    /// Anyone you can see, you included (Pull The Strings).
    AnyoneSeen,
    /// One ally you can see, not you (Follow My Lead, Effortless).
    OtherAllySeen,
    /// Every enemy next to the square this action marked or broke (Roughhousing).
    EnemiesBySpot,
    /// One enemy within 3 of the square this action marked, seen from that square (Trick Shot).
    EnemyNearSpot,
    /// Every enemy next to you (Dragon Slam).
    AdjacentEnemies,
    /// The unit the effect before picked and every enemy of yours next to it (Dragon Fire 5+).
    AroundSame,
    /// The unit the effect before picked and every enemy of yours in its range (Dragon Fire 8+).
    SameReach,
    /// One enemy within the user's range of the square this action marked or broke, seen from
    /// it (Shatter: an enemy that was in range of the Copy).
    EnemyFromSpot,
    /// One enemy that damaged the user this turn, anywhere (Counter Attack).
    EnemyWhoHurtYou,
    /// One enemy next to the square this action marked (a Necromancer's Copy).
    EnemyBySpot,
    /// One ally in range, not you (Unbreakable's Iron).
    OtherAlly,
}

/// One step of what an action does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Effect {
    /// A hit (D-HP-5): damage, then a push when `push` > 0.
    Damage {
        /// Damage.
        amount: Num,
        /// Whom.
        target: Target,
        /// Spaces pushed after the damage.
        #[serde(default)]
        push: i32,
        /// Armor, Shields, Iron and Weakness do not touch it and nobody answers (D-CLAR-3).
        #[serde(default)]
        pierce: bool,
        /// Any number of Power tokens may boost it (Crush 9+).
        #[serde(default)]
        any_power: bool,
        /// The user may pick nobody.
        #[serde(default)]
        optional: bool,
        /// The target hits the user instead (Take It On The Chin): Armor and the Shield count.
        #[serde(default)]
        reverse: bool,
    },
    /// Push up to `n` spaces (D-FMV-1).
    Push {
        /// Spaces.
        n: Num,
        /// Whom.
        target: Target,
    },
    /// Pull up to `n` spaces (D-FMV-1).
    Pull {
        /// Spaces.
        n: Num,
        /// Whom.
        target: Target,
    },
    /// A push of `n` when the user's turn ends (Fury).
    PushLater {
        /// Spaces.
        n: i32,
        /// Whom.
        target: Target,
    },
    /// The user gains tokens.
    Gain {
        /// Kind.
        token: Token,
        /// How many.
        n: Num,
    },
    /// Someone gains tokens.
    Give {
        /// Kind.
        token: Token,
        /// How many.
        n: Num,
        /// Whom.
        target: Target,
        /// The user may give nothing.
        #[serde(default)]
        optional: bool,
    },
    /// Healing: `n`, or the Heal Value (D-CW-4).
    Heal {
        /// How much; the Heal Value when absent.
        #[serde(default)]
        n: Option<i32>,
        /// Whom.
        target: Target,
    },
    /// Someone (the user unless `target` says) gains a Shield of `n` points (D-HP-6).
    Shield {
        /// Points.
        n: i32,
        /// Whom (the user when absent).
        #[serde(default)]
        target: Option<Target>,
    },
    /// A teleport (D-FMV-4): the user (or `target`) to an empty space.
    Teleport {
        /// Most spaces (0: any distance).
        #[serde(default)]
        n: i32,
        /// Fewest spaces.
        #[serde(default)]
        min: i32,
        /// Only within the user's range, in sight.
        #[serde(default)]
        in_range: bool,
        /// Only to a space the mover can see.
        #[serde(default)]
        seen: bool,
        /// Only onto this obstacle.
        #[serde(default)]
        onto: Option<Obstacle>,
        /// Only onto a space this action put an obstacle on.
        #[serde(default)]
        placed: bool,
        /// Only next to someone with nobody next to them (Suddenly...).
        #[serde(default)]
        beside_alone: bool,
        /// Only onto the square this action marked or broke.
        #[serde(default)]
        spot: bool,
        /// Only to where the unit picked before is within the user's range, in sight (Counter
        /// Attack).
        #[serde(default)]
        reach_same: bool,
        /// Who teleports (the user when absent).
        #[serde(default)]
        target: Option<Target>,
    },
    /// Teleport next to the target (Denial).
    Approach {
        /// Whom.
        target: Target,
    },
    /// The user may move up to `n` spaces, not Free Movement (D-FMV-5).
    Move {
        /// Spaces.
        n: i32,
    },
    /// Challenge someone (D-TOK-4).
    Challenge {
        /// Whom.
        target: Target,
    },
    /// Put an obstacle on an empty space in range (or next to the user).
    Place {
        /// Which.
        obstacle: Obstacle,
        /// Next to the user rather than in range.
        #[serde(default)]
        adjacent: bool,
        /// Under the unit the effect before picked, no question asked (Burn It All Down).
        #[serde(default)]
        under: bool,
        /// Only next to an obstacle of this kind (Pyroclasm).
        #[serde(default)]
        touching: Option<Obstacle>,
        /// Also on every map space next to it that holds no Wall (Bombardment 6+).
        #[serde(default)]
        around: bool,
        /// 1 to this many spaces away, sight or not, instead of the range (Walled In).
        #[serde(default)]
        within: Option<i32>,
    },
    /// Break an obstacle in range, and those touching it `spread` times over (D-BA-5).
    Destroy {
        /// Rings of touching obstacles also broken.
        spread: u8,
    },
    /// Someone drops `n` tokens of a kind.
    Strip {
        /// Kind.
        token: Token,
        /// How many.
        n: i32,
        /// Whom.
        target: Target,
    },
    /// Take `n` tokens from someone, one at a time (D-BA-7).
    RemoveToken {
        /// How many.
        n: i32,
        /// Whom.
        target: Target,
        /// The user gains what it takes (Hunger).
        #[serde(default)]
        steal: bool,
        /// The target keeps the token and gains one more of its kind (You Can Do It!).
        #[serde(default)]
        copy: bool,
        /// What is taken turns to Power (Power Converter): the target's, or the user's if stolen.
        #[serde(default)]
        to_power: bool,
        /// Every token of the kind picked, not one (Power Converter 6+).
        #[serde(default)]
        all: bool,
    },
    /// Break every obstacle next to the target (Ka-Boom!).
    DestroyAround {
        /// Whom.
        target: Target,
    },
    /// Every Trap and Wall within the user's range turns to Rubble (Banshee's Wail).
    Crumble,
    /// The user moves the target up to `n` spaces, step by step; no push or pull (Pull The
    /// Strings).
    Shift {
        /// Spaces.
        n: i32,
        /// Whom.
        target: Target,
    },
    /// The target drops the Challenge it holds (Not Good Enough).
    DropChallenge {
        /// Whom.
        target: Target,
    },
    /// The target does `do` as its own, the user's action going on after (Follow My Lead).
    Relay {
        /// Who.
        target: Target,
        /// What it does.
        #[serde(rename = "do")]
        effects: Vec<Effect>,
        /// The user may pick nobody.
        #[serde(default)]
        optional: bool,
        /// How many of `option` the target picks (You Can Do It!), done before `do`.
        #[serde(default)]
        choose: u8,
        /// The target's picks.
        #[serde(default)]
        option: Vec<Choice>,
    },
    /// Pick an obstacle in range and remember its square (Trick Shot).
    Mark,
    /// Pick the target the effects after it aim at as `same` (Thrill of the Fight).
    Aim {
        /// Whom.
        target: Target,
    },
    /// A Basic Action as if paid with the number spent (Show Off).
    Basic {
        /// The Basic Action's id.
        id: String,
    },
    /// The user gains `n` Basic tokens, of the kinds it picks one by one.
    GainBasic {
        /// How many.
        n: i32,
    },
    /// The user's next Action this turn costs 1 more and has every number 1 higher (Take Aim).
    TakeAim,
    /// The user's next Action this turn reaches 2 further and may take 3 more targets (Amplify).
    Amplify,
    /// Watch Closely: if the user spends a Training token before this turn ends, an ally gains one.
    WatchClosely,
    /// A Frantic hero takes this Archetype's Frantic ability for the turn (D-HC-9).
    PickFrantic {
        /// The Archetype's id.
        id: String,
    },
    /// A number `n` joins the user's pool (Waiting Game).
    AddNumber {
        /// The number.
        n: Num,
    },
    /// The user gains `n` tokens of the song its singer sang last (Sing Along's gift, inside a
    /// `relay`).
    GainSong {
        /// How many.
        n: i32,
    },
    /// A number `n` joins the user's pool and must be spent on an Action at once (Sing Along 6+;
    /// Counter Attack spends its own number again, on an Action that can aim at the unit it
    /// picked: `aim`).
    SpendNow {
        /// The number.
        n: Num,
        /// The Action must be one that can aim at the unit picked before.
        #[serde(default)]
        aim: bool,
    },
}

/// One pick of a choice (D-ACT-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// For a person.
    pub name: String,
    /// What it does.
    #[serde(rename = "do")]
    pub effects: Vec<Effect>,
}

/// What an action does when paid at one gate (D-ACT-4): everything, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    /// The lowest number that reaches it (0 for X and token costs).
    pub at: i32,
    /// How many options to pick, if it is a choice.
    #[serde(default)]
    pub choose: u8,
    /// The picks of a choice.
    #[serde(default)]
    pub option: Vec<Choice>,
    /// Basic tokens that buy each further pick ([2, 3]: 2 for two picks, 3 for all three).
    #[serde(default)]
    pub buy: Vec<u32>,
    /// What it does before the picks (a choice aimed at one unit picks it here).
    #[serde(default)]
    pub first: Vec<Effect>,
    /// What it does (after the picks of a choice).
    #[serde(rename = "do", default)]
    pub effects: Vec<Effect>,
}

/// An action: a Basic Action or a Form's Unique Action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The checklist id, for Basic Actions.
    #[serde(default)]
    pub rule: Option<String>,
    /// Cost.
    pub cost: Cost,
    /// What it does, in our words.
    pub text: String,
    /// Uses a turn (Fury: 3); none for no limit.
    #[serde(default)]
    pub per_turn: Option<u8>,
    /// Listed for the look-up, not offered in play.
    #[serde(default)]
    pub reference_only: bool,
    /// Offered only on an enemy's turn (Waiting Game).
    #[serde(default)]
    pub enemy_turn: bool,
    /// What it does at each gate.
    #[serde(default)]
    pub gate: Vec<Gate>,
}

impl ActionDef {
    /// The gate a number `v` reaches (the highest at or below it); for X and token costs, the
    /// only one.
    pub fn gate_for(&self, v: i32) -> Option<&Gate> {
        match &self.cost {
            Cost::Gates(_) => self.gate.iter().rev().find(|g| g.at <= v),
            _ => self.gate.first(),
        }
    }
}

/// The parts of a Form's ability Fray plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trait {
    /// Blaster: the Style's longest range +1 (D-RNG-2).
    #[serde(rename = "range-plus-1")]
    RangePlus1,
    /// Control: the Style's longest range +3 (D-RNG-2).
    #[serde(rename = "range-plus-3")]
    RangePlus3,
    /// Armor (D-HP-7).
    Armor,
    /// Half the Speed gained comes as Iron (D-CLAR-9).
    SpeedToIron,
    /// Half the Speed gained comes as Power (D-CLAR-9).
    SpeedToPower,
    /// Up to 3 Power a hit (D-TOK-2).
    PowerThree,
    /// One-Two's second hit (D-CLAR-2).
    ExtraHit,
    /// Speed tokens stay at the end of a turn (D-MOVE-5).
    KeepSpeed,
    /// One Action a turn (D-TURN-6).
    OneAction,
    /// The pool stays between turns (D-TURN-6).
    KeepPool,
    /// +2 Speed at the start and end of your turn (Shadow).
    SpeedStartEnd,
    /// A song at the start of your turn (Song).
    Song,
    /// Heal or shed a token at the start, Weakness at the end (Vigilance).
    Vigilant,
    /// Bonus dice (Wild).
    WildDice,
    /// An enemy that damages your Shield takes 1 (Zen).
    ZenRetaliate,
    /// Throws and Grapples give Speed (Dance).
    SpeedAfterThrow,
    /// An Action may take one more target, or put one more obstacle (Blaster, D-CLAR-1).
    ExtraTarget,
}

/// A Form (D-STN-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Form {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Its other four names.
    pub aliases: Vec<String>,
    /// Where the book has it.
    pub lines: String,
    /// Action Dice (reconstructed, rules/dojo.md §3.4).
    pub dice: Vec<Die>,
    /// Its dice in a Forbidden Stance.
    pub forbidden: Vec<Die>,
    /// Its Skill.
    pub skill: String,
    /// Its ability, in our words.
    pub ability: String,
    /// What of the ability Fray plays.
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// What of it is not played yet.
    #[serde(default)]
    pub unplayed: Option<String>,
    /// Its Unique Actions.
    #[serde(default)]
    pub action: Vec<ActionDef>,
}

impl Form {
    /// Whether its ability has `t`.
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }
}

/// An Archetype (D-HC-3..5): its three abilities, listed for the look-up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Archetype {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Where the book has it.
    pub lines: String,
    /// The Focused ability.
    pub focused: String,
    /// The Fused ability.
    pub fused: String,
    /// The Frantic ability.
    pub frantic: String,
    /// Which of its abilities are not played yet (besides the Frantic one).
    #[serde(default)]
    pub unplayed: Option<String>,
    /// A Boss Archetype's Styles, one of which a Boss's Stances must use (§2.4, D-EN-11); `None`
    /// for the thirteen hero Archetypes. Boss Archetypes come from `dojo/enemies.toml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boss: Option<Vec<String>>,
}

/// A Style (D-STN-2): range, ability, Unique Actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Style {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Its Archetype's id.
    pub archetype: String,
    /// Where the book has it.
    pub lines: String,
    /// "MIN-MAX" or "none".
    pub range: String,
    /// Its ability, in our words.
    pub ability: String,
    /// What of the ability Fray plays.
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// Action Dice it adds.
    #[serde(default)]
    pub dice: Vec<Die>,
    /// What of it is not played yet.
    #[serde(default)]
    pub unplayed: Option<String>,
    /// Its Unique Actions.
    #[serde(default)]
    pub action: Vec<ActionDef>,
}

impl Style {
    /// Its range, `None` for "none" (it cannot aim at anyone).
    pub fn span(&self) -> Option<(i32, i32)> {
        let (a, b) = match self.range.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let n: i32 = self.range.trim().parse().ok()?;
                (n, n)
            }
        };
        Some((a, b))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StylesFile {
    archetype: Vec<Archetype>,
    style: Vec<Style>,
}

/// A token kind's entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenDef {
    /// Id.
    pub id: Token,
    /// Name.
    pub name: String,
    /// Checklist id.
    pub rule: String,
    /// Iron, Power or Speed.
    #[serde(default)]
    pub basic: bool,
    /// How much Fray plays.
    pub played: String,
    /// What it does.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormsFile {
    form: Vec<Form>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionsFile {
    action: Vec<ActionDef>,
}

/// A Build (D-BLD-*).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildDef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Checklist id.
    pub rule: String,
    /// What it does.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildsFile {
    build: Vec<BuildDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensFile {
    token: Vec<TokenDef>,
}

/// The content a match plays with.
#[derive(Clone, Debug)]
pub struct Content {
    /// The Forms.
    pub forms: Vec<Form>,
    /// The Basic Actions.
    pub basic: Vec<ActionDef>,
    /// The token kinds.
    pub tokens: Vec<TokenDef>,
    /// The Archetypes.
    pub archetypes: Vec<Archetype>,
    /// The Builds.
    pub builds: Vec<BuildDef>,
    /// The Styles.
    pub styles: Vec<Style>,
    /// The sample encounter's text.
    pub encounter: String,
    /// The enemy chapter's forces and the Stooges' Reinforcements (`dojo/enemies.toml`).
    pub enemies: enemy_file::EnemyFile,
    /// The Bonuses and Penalties (`dojo/stakes.toml`).
    pub stakes: Vec<stake_file::StakeDef>,
}

/// Names `file` in a TOML error (which carries line, column and field).
fn in_file(file: &str, e: impl fmt::Display) -> String {
    format!("{file}: {}", e.to_string().trim_end())
}

/// The line of byte `offset` in `text`, from 1.
fn line_at(text: &str, needle: &str) -> usize {
    text.find(needle).map_or(0, |o| fray_core::scenario::line_of(text, o))
}

fn check_action(file: &str, text: &str, a: &ActionDef, errors: &mut Vec<String>) {
    let line = line_at(text, &format!("id = \"{}\"", a.id));
    if a.reference_only {
        return;
    }
    if a.gate.is_empty() {
        errors.push(format!("{file}:{line}: action {}: field `gate`: a played action needs its gates", a.id));
    }
    if let Cost::Gates(gates) = &a.cost {
        let ats: Vec<i32> = a.gate.iter().map(|g| g.at).collect();
        if &ats != gates {
            errors.push(format!(
                "{file}:{line}: action {}: field `gate`: the gates are at {ats:?}, the cost says {gates:?}",
                a.id
            ));
        }
    } else if a.gate.len() != 1 || a.gate[0].at != 0 {
        errors.push(format!("{file}:{line}: action {}: field `gate`: an X or token cost has one gate at 0", a.id));
    }
    for g in &a.gate {
        if (g.choose as usize) + g.buy.len() > g.option.len() || (g.choose == 0) != g.option.is_empty() {
            errors.push(format!(
                "{file}:{line}: action {}: field `choose`: {} picks of {} options",
                a.id,
                g.choose,
                g.option.len()
            ));
        }
    }
}

impl Content {
    /// The compiled-in content.
    pub fn builtin() -> Result<Content, String> {
        Content::from_files(BUILTIN.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect())
    }
    /// Content from (file name, text) pairs laid out like [`BUILTIN`]; every problem at once.
    pub fn from_files(files: Vec<(String, String)>) -> Result<Content, String> {
        let get = |name: &str| files.iter().find(|(n, _)| n == name).map(|(_, t)| t.as_str());
        let mut errors = Vec::new();
        let mut forms = Vec::new();
        let mut basic = Vec::new();
        let mut tokens = Vec::new();
        let mut archetypes = Vec::new();
        let mut builds = Vec::new();
        if let Some(text) = get("dojo/builds.toml") {
            match toml::from_str::<BuildsFile>(text) {
                Ok(f) => builds = f.build,
                Err(e) => errors.push(in_file("dojo/builds.toml", e)),
            }
        }
        let mut styles = Vec::new();
        for (name, _) in BUILTIN {
            if get(name).is_none() {
                errors.push(format!("{name}: missing"));
            }
        }
        if let Some(text) = get("dojo/forms.toml") {
            match toml::from_str::<FormsFile>(text) {
                Ok(f) => forms = f.form,
                Err(e) => errors.push(in_file("dojo/forms.toml", e)),
            }
            for f in &forms {
                for a in &f.action {
                    check_action("dojo/forms.toml", text, a, &mut errors);
                }
                if f.dice.is_empty() {
                    let line = line_at(text, &format!("id = \"{}\"", f.id));
                    errors.push(format!("dojo/forms.toml:{line}: form {}: field `dice`: no dice", f.id));
                }
            }
        }
        if let Some(text) = get("dojo/styles.toml") {
            match toml::from_str::<StylesFile>(text) {
                Ok(f) => (archetypes, styles) = (f.archetype, f.style),
                Err(e) => errors.push(in_file("dojo/styles.toml", e)),
            }
            for st in &styles {
                let line = line_at(text, &format!("id = \"{}\"", st.id));
                if st.range != "none" && !st.span().is_some_and(|(a, b)| (0..=12).contains(&a) && a <= b && b <= 12) {
                    errors.push(format!(
                        "dojo/styles.toml:{line}: style {}: field `range`: write MIN-MAX or none",
                        st.id
                    ));
                }
                if !archetypes.iter().any(|a| a.id == st.archetype) {
                    errors.push(format!(
                        "dojo/styles.toml:{line}: style {}: field `archetype`: no such Archetype",
                        st.id
                    ));
                }
                for a in &st.action {
                    check_action("dojo/styles.toml", text, a, &mut errors);
                }
            }
        }
        if let Some(text) = get("dojo/actions.toml") {
            match toml::from_str::<ActionsFile>(text) {
                Ok(f) => basic = f.action,
                Err(e) => errors.push(in_file("dojo/actions.toml", e)),
            }
            for a in &basic {
                check_action("dojo/actions.toml", text, a, &mut errors);
            }
        }
        if let Some(text) = get("dojo/tokens.toml") {
            match toml::from_str::<TokensFile>(text) {
                Ok(f) => tokens = f.token,
                Err(e) => errors.push(in_file("dojo/tokens.toml", e)),
            }
        }
        let mut ids: Vec<&str> = forms.iter().map(|f| f.id.as_str()).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            errors.push("dojo/forms.toml: two forms share an id".into());
        }
        let encounter = get("dojo/encounter.toml").unwrap_or_default().to_string();
        let enemies = get(enemy_file::FILE).and_then(|text| match enemy_file::read(text) {
            Ok(f) => {
                check_action(enemy_file::FILE, text, &f.reinforcements, &mut errors);
                for a in
                    f.style.iter().flat_map(|st| st.action.iter()).chain(f.form.iter().flat_map(|x| x.action.iter()))
                {
                    check_action(enemy_file::FILE, text, a, &mut errors);
                }
                // The Boss Archetypes and the one-Boss Styles join the others (§2.4, §2.5).
                boss_file::join(&f, &mut archetypes, &mut styles, &mut forms);
                Some(f)
            }
            Err(e) => {
                errors.push(e);
                None
            }
        });
        let stakes = get(stake_file::FILE).and_then(|text| match stake_file::read(text) {
            Ok(v) => Some(v),
            Err(e) => {
                errors.push(e);
                None
            }
        });
        match (enemies, stakes) {
            (Some(enemies), Some(stakes)) if errors.is_empty() => {
                let c = Content { forms, basic, tokens, archetypes, builds, styles, encounter, enemies, stakes };
                let errors = enemy_file::check(&c.enemies, &c);
                if errors.is_empty() { Ok(c) } else { Err(errors.join("\n")) }
            }
            _ => Err(errors.join("\n")),
        }
    }
    /// The Form called `id` (or any of its names).
    pub fn form(&self, id: &str) -> Option<usize> {
        let n = norm(id);
        self.forms.iter().position(|f| norm(&f.id) == n || norm(&f.name) == n || f.aliases.iter().any(|a| norm(a) == n))
    }
    /// The Style called `id` (or its name).
    pub fn style(&self, id: &str) -> Option<usize> {
        let n = norm(id);
        self.styles.iter().position(|s| norm(&s.id) == n || norm(&s.name) == n)
    }
    /// Every entry of the rules look-up: forms, styles, archetypes, actions, tokens.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        for a in self.archetypes.iter().filter(|a| a.boss.is_none()) {
            out.push(Entry {
                id: format!("archetype:{}", a.id),
                name: a.name.clone(),
                kind: "archetype".into(),
                aliases: Vec::new(),
                text: format!(
                    "Archetype ({}). Focused: {} Fused: {} Frantic: {}{}",
                    a.lines,
                    a.focused,
                    a.fused,
                    a.frantic,
                    a.unplayed.as_ref().map(|u| format!(" Not played yet: {u}.")).unwrap_or_default()
                ),
            });
        }
        for st in &self.styles {
            let actions: Vec<String> = st.action.iter().map(|a| format!("{} ({})", a.name, a.cost)).collect();
            let archetype = self.archetypes.iter().find(|a| a.id == st.archetype).map_or("?", |a| a.name.as_str());
            let mut text = format!(
                "{archetype} Style ({}), range {}. {} Unique Actions: {}.",
                st.lines,
                st.range,
                st.ability,
                if actions.is_empty() { "none".into() } else { actions.join(", ") }
            );
            if let Some(u) = &st.unplayed {
                text.push_str(&format!(" Not played yet: {u}."));
            }
            out.push(Entry {
                id: format!("style:{}", st.id),
                name: format!("{} Style", st.name),
                kind: "style".into(),
                aliases: Vec::new(),
                text,
            });
            for a in &st.action {
                out.push(action_entry(a, Some(&format!("{} Style", st.name))));
            }
        }
        for f in &self.forms {
            let dice: Vec<String> = f.dice.iter().map(|d| d.to_string()).collect();
            let actions: Vec<String> = f.action.iter().map(|a| format!("{} ({})", a.name, a.cost)).collect();
            let mut text = format!(
                "Action Dice {} ({}). {} Unique Actions: {}. Skill: {}.",
                dice.join(" "),
                f.lines,
                f.ability,
                actions.join(", "),
                f.skill
            );
            if let Some(u) = &f.unplayed {
                text.push_str(&format!(" Not played yet: {u}."));
            }
            out.push(Entry {
                id: format!("form:{}", f.id),
                name: format!("{} Form", f.name),
                kind: "form".into(),
                aliases: f.aliases.clone(),
                text,
            });
            for a in &f.action {
                out.push(action_entry(a, Some(&f.name)));
            }
        }
        for a in &self.basic {
            out.push(action_entry(a, None));
        }
        for b in &self.builds {
            out.push(Entry {
                id: b.rule.clone(),
                name: format!("{} Build", b.name),
                kind: "build".into(),
                aliases: vec![b.name.clone()],
                text: b.text.clone(),
            });
        }
        for t in &self.tokens {
            out.push(Entry {
                id: t.rule.clone(),
                name: format!("{} token", t.name),
                kind: "token".into(),
                aliases: vec![t.name.clone()],
                text: format!("{} ({})", t.text, if t.basic { "Basic" } else { "not Basic" }),
            });
        }
        out
    }
}

fn action_entry(a: &ActionDef, form: Option<&str>) -> Entry {
    let whose = match form {
        Some(f) if f.ends_with("Style") => format!("Unique Action of {f}"),
        Some(f) => format!("Unique Action of {f} Form"),
        None => "Basic Action".into(),
    };
    let mut text = format!("{whose}, cost {}. {}", a.cost, a.text);
    if a.reference_only {
        text.push_str(" (Not played yet.)");
    }
    Entry {
        id: a.rule.clone().unwrap_or_else(|| format!("action:{}", a.id)),
        name: a.name.clone(),
        kind: "action".into(),
        aliases: vec![a.id.clone()],
        text,
    }
}

/// Lower-case letters and digits only.
pub fn norm(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}
