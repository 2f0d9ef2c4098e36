//! Scoring (K-SCO): points for a team, and the end it sets off on reaching the target score
//! (K-END-1). Names the data layer and the journal only.

use crate::engine::arena::Side;
use crate::engine::events::Event;
use crate::engine::kit::Ctx;
use crate::engine::state::UnitIdx;

/// Adds points for a team and triggers the end of the match at the target score (K-END-1).
pub fn score(cx: &mut Ctx, side: Side, points: i32, by: Option<UnitIdx>, why: String) {
    cx.emit(Event::Scored { side, points, by: by.map(|b| cx.s.who(b)), why });
    if let Some(t) = side.team()
        && !cx.s.end_triggered
        && cx.s.score[t] >= cx.s.options.target_score
    {
        cx.emit(Event::EndTriggered { side });
    }
}
