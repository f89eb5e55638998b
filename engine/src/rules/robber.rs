//! Moving the robber and stealing (B-ROB-2..5).

use crate::{
    board::{HexCoord, Terrain},
    chance::Chance,
    error::RuleError,
    events::Event,
    state::{Game, Seat},
};

impl Game {
    /// B-ROB-2/4: checks that the robber may go to `hex`; returns its index.
    pub(crate) fn robber_target(&self, hex: HexCoord) -> Result<u8, RuleError> {
        let h = self.board.hex(hex).ok_or(RuleError::UnknownHex(hex))?;
        if !self.board.is_land_hex(h) {
            return Err(RuleError::RobberNotOnLand);
        }
        if Some(h) == self.robber {
            return Err(RuleError::RobberMustMove);
        }
        if self.board.terrain[h as usize] == Terrain::Desert && !self.config.robber_may_enter_desert {
            return Err(RuleError::RobberDesertForbidden);
        }
        Ok(h)
    }

    /// Tests if the robber may go to hex index `h`.
    pub(crate) fn is_robber_target(&self, h: u8) -> bool {
        self.board.is_land_hex(h)
            && Some(h) != self.robber
            && (self.config.robber_may_enter_desert || self.board.terrain[h as usize] != Terrain::Desert)
    }

    /// B-ROB-3: opponents with a building on the hex and at least one card, in seat order.
    pub(crate) fn robber_victims(&self, thief: Seat, h: u8) -> Vec<Seat> {
        let mut victims: Vec<Seat> = self.board.hex_vertices[h as usize]
            .iter()
            .filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
            .map(|b| b.seat)
            .filter(|&s| s != thief && self.players[s.index()].resources.total() > 0)
            .collect();
        victims.sort_unstable();
        victims.dedup();
        victims
    }

    /// Moves the robber and steals one random card from the chosen victim.
    pub(super) fn decide_robber(
        &self,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut impl Chance,
    ) -> Result<Vec<Event>, RuleError> {
        let h = self.robber_target(hex)?;
        let victims = self.robber_victims(seat, h);
        let mut events = vec![Event::RobberMoved { seat, hex }];
        match steal_from {
            None if victims.is_empty() => {}
            None => return Err(RuleError::VictimRequired),
            Some(victim) if victims.contains(&victim) => {
                let resource = chance.steal_card(&self.players[victim.index()].resources);
                let resource = if self.players[victim.index()].resources.get(resource) > 0 {
                    resource
                } else {
                    // A chance source that names a card the victim lacks gets the first card.
                    self.players[victim.index()].resources.nth_card(0).unwrap_or(resource)
                };
                events.push(Event::ResourceStolen { thief: seat, victim, resource: Some(resource) });
            }
            Some(victim) => return Err(RuleError::InvalidVictim(victim)),
        }
        Ok(events)
    }
}
