//! Dice: every random number a ruleset uses comes through the [`Dice`] trait, so a match is
//! reproduced by its setup, its seed and its choices, and a scenario can script exact rolls.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use thiserror::Error;

/// Why a die could not be rolled.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DiceError {
    /// A scripted sequence ran out and no seed was given to continue from.
    #[error("the scripted dice ran out: roll {index} (a d{sides}) has no value; add it to [dice] rolls or give a seed")]
    Exhausted {
        /// 1-based number of the roll that found nothing.
        index: usize,
        /// Size of the die being rolled.
        sides: u32,
    },
    /// A scripted value cannot come up on the die being rolled.
    #[error("scripted roll {index} is {value}, which cannot come up on a d{sides}")]
    Impossible {
        /// 1-based number of the roll.
        index: usize,
        /// The scripted value.
        value: u32,
        /// Size of the die being rolled.
        sides: u32,
    },
}

/// A source of die rolls.
pub trait Dice {
    /// Rolls one die with `sides` faces: a value from 1 to `sides`.
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError>;
}

/// Seeded dice for play and simulation (ChaCha8: fast, portable, reproducible).
#[derive(Clone, Debug)]
pub struct SeededDice(ChaCha8Rng);

impl SeededDice {
    /// Dice that always produce the same rolls for the same seed.
    pub fn new(seed: u64) -> Self {
        SeededDice(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Dice for SeededDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        Ok(self.0.gen_range(1..=sides.max(1)))
    }
}

/// A fixed sequence of rolls, optionally continued by seeded dice once it runs out.
#[derive(Clone, Debug)]
pub struct ScriptedDice {
    rolls: VecDeque<u32>,
    used: usize,
    then: Option<SeededDice>,
}

impl ScriptedDice {
    /// Dice that show `rolls` in order; with `seed`, random rolls follow, otherwise running out
    /// is an error.
    pub fn new(rolls: impl IntoIterator<Item = u32>, seed: Option<u64>) -> Self {
        ScriptedDice { rolls: rolls.into_iter().collect(), used: 0, then: seed.map(SeededDice::new) }
    }
    /// How many scripted values have not been rolled yet.
    pub fn remaining(&self) -> usize {
        self.rolls.len()
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.used += 1;
        match self.rolls.pop_front() {
            Some(v) if v >= 1 && v <= sides => Ok(v),
            Some(v) => Err(DiceError::Impossible { index: self.used, value: v, sides }),
            None => match &mut self.then {
                Some(d) => d.roll(sides),
                None => Err(DiceError::Exhausted { index: self.used, sides }),
            },
        }
    }
}

/// Either kind of dice, so a session can hold one and clone it cheaply.
#[derive(Clone, Debug)]
pub enum AnyDice {
    /// Seeded random dice.
    Seeded(SeededDice),
    /// Scripted dice.
    Scripted(ScriptedDice),
}

impl Dice for AnyDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        match self {
            AnyDice::Seeded(d) => d.roll(sides),
            AnyDice::Scripted(d) => d.roll(sides),
        }
    }
}

/// A pool of dice kept after rolling: each die is its own number, never summed unless a rule
/// sums them. Rules spend one die at a time by its value (an action costing "4 or more" spends
/// a die showing at least 4), change values in place, or add numbers that were never rolled.
/// A pool kept in a state may last across turns. A power roll of 2d10 is a pool of two summed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    values: Vec<i32>,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Self {
        Pool::default()
    }
    /// A pool holding `values` (as rolled earlier, or as a scenario sets it).
    pub fn of(values: impl IntoIterator<Item = i32>) -> Self {
        Pool { values: values.into_iter().collect() }
    }
    /// Rolls `n` dice of `sides` faces, one after another.
    pub fn roll(dice: &mut dyn Dice, n: usize, sides: u32) -> Result<Self, DiceError> {
        let mut pool = Pool { values: Vec::with_capacity(n) };
        pool.roll_more(dice, n, sides)?;
        Ok(pool)
    }
    /// Rolls `n` more dice of `sides` faces into the pool.
    pub fn roll_more(&mut self, dice: &mut dyn Dice, n: usize, sides: u32) -> Result<(), DiceError> {
        for _ in 0..n {
            self.values.push(dice.roll(sides)? as i32);
        }
        Ok(())
    }
    /// Adds a number that was not rolled.
    pub fn add(&mut self, value: i32) {
        self.values.push(value);
    }
    /// The numbers, in the order they came.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
    /// How many dice are left.
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// Whether no die is left.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// The numbers added up.
    pub fn sum(&self) -> i32 {
        self.values.iter().sum()
    }
    /// The highest number, if any.
    pub fn highest(&self) -> Option<i32> {
        self.values.iter().copied().max()
    }
    /// The lowest number, if any.
    pub fn lowest(&self) -> Option<i32> {
        self.values.iter().copied().min()
    }
    /// Whether a die shows `value`.
    pub fn contains(&self, value: i32) -> bool {
        self.values.contains(&value)
    }
    /// The distinct numbers of at least `min`, lowest first: what a cost of "`min` or more"
    /// may be paid with.
    pub fn at_least(&self, min: i32) -> Vec<i32> {
        let mut v: Vec<i32> = self.values.iter().copied().filter(|&x| x >= min).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// Spends one die showing `value`: it leaves the pool. `false`, and nothing changes, when
    /// no die shows it.
    pub fn spend(&mut self, value: i32) -> bool {
        match self.values.iter().position(|&x| x == value) {
            Some(i) => {
                self.values.remove(i);
                true
            }
            None => false,
        }
    }
    /// Takes the highest die out of the pool.
    pub fn discard_highest(&mut self) -> Option<i32> {
        let v = self.highest()?;
        self.spend(v);
        Some(v)
    }
    /// Takes the lowest die out of the pool.
    pub fn discard_lowest(&mut self) -> Option<i32> {
        let v = self.lowest()?;
        self.spend(v);
        Some(v)
    }
    /// Changes every number in place (a bonus to all, a penalty to each).
    pub fn adjust_all(&mut self, f: impl Fn(i32) -> i32) {
        self.values.iter_mut().for_each(|x| *x = f(*x));
    }
    /// Empties the pool.
    pub fn clear(&mut self) {
        self.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = SeededDice::new(7);
        let mut b = SeededDice::new(7);
        for _ in 0..100 {
            assert_eq!(a.roll(6), b.roll(6));
        }
    }

    #[test]
    fn scripted_dice_refuse_impossible_values_and_run_out() {
        let mut d = ScriptedDice::new([3, 7], None);
        assert_eq!(d.roll(6), Ok(3));
        assert_eq!(d.roll(6), Err(DiceError::Impossible { index: 2, value: 7, sides: 6 }));
        assert_eq!(d.roll(6), Err(DiceError::Exhausted { index: 3, sides: 6 }));
    }
}
