//! Rate limits and quotas: how often one client address or one account may register, log
//! in, create games and move, and how many unfinished games an account may hold.
//!
//! Each limit is a keyed GCRA limiter (`governor`): a burst of `N` requests, then one more
//! every `window / N`. A request over a limit is a `429` problem (`rate_limited`) with
//! `Retry-After` and the `RateLimit-*` headers of the IETF draft. Built-in bots play through
//! the engine in-process and are never limited. Limiter memory is bounded: keys whose state
//! is the same as a fresh key's are swept every minute, and at once when a limiter holds more
//! than [`MAX_KEYS`] keys.

use std::{
    hash::Hash,
    net::{IpAddr, Ipv6Addr},
    num::NonZeroU32,
    sync::Mutex,
    time::{Duration, Instant},
};

use actix_web::HttpRequest;
use diesel::prelude::*;
use governor::{clock::Clock, DefaultKeyedRateLimiter, Quota};
use uuid::Uuid;

use crate::{
    error::{ApiError, Throttled},
    store::{db::DbConnection, schema::games, GameStatus},
};

/// The limits, from the environment (see [`LimitsConfig::from_env`]); `0` switches a limit off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsConfig {
    /// Logins per minute for one account, wrong passwords and unknown users included
    /// (`CATAN_RATE_LOGIN_PER_MIN`).
    pub login_per_account_per_min: u32,
    /// Logins per minute from one client address (`CATAN_RATE_LOGIN_PER_ADDRESS_PER_MIN`).
    pub login_per_address_per_min: u32,
    /// Registrations per minute of one username, in any case (`CATAN_RATE_REGISTER_PER_MIN`).
    pub register_per_account_per_min: u32,
    /// Registrations per minute from one client address
    /// (`CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN`).
    pub register_per_address_per_min: u32,
    /// Games one account may create per minute (`CATAN_RATE_GAMES_PER_MIN`).
    pub games_per_min: u32,
    /// Moves one account may post per second, sustained, that do not advance a game
    /// (`CATAN_RATE_MOVES_PER_SEC`): rejected moves (and trade actions), idempotent replays,
    /// and every trade offer and withdrawal. A move that is played costs nothing here (issue
    /// 31: a bot playing its seat as fast as the server answers never meets the limit).
    pub moves_per_sec: u32,
    /// Such moves one account may post at once before the sustained rate applies
    /// (`CATAN_RATE_MOVES_BURST`).
    pub moves_burst: u32,
    /// Reads one account (or, without a token, one client address) may make per second,
    /// sustained (`CATAN_RATE_READS_PER_SEC`): game views, legal moves, log pages, trades,
    /// pictures, past positions, lobby pages and stream connections. A log read that waited
    /// for a move (`wait`) costs nothing.
    pub reads_per_sec: u32,
    /// Such reads at once before the sustained rate applies (`CATAN_RATE_READS_BURST`).
    pub reads_burst: u32,
    /// Position analyses (`POST /api/v1/positions/...`) one client address may ask for per
    /// second, sustained (`CATAN_RATE_POSITIONS_PER_SEC`).
    pub positions_per_sec: u32,
    /// Position analyses one client address may ask for at once before the sustained rate
    /// applies (`CATAN_RATE_POSITIONS_BURST`).
    pub positions_burst: u32,
    /// Games one account may have created that are open or playing and not idle for
    /// [`IDLE_GAME_HOURS`] (`CATAN_MAX_OPEN_GAMES`).
    pub max_open_games: u32,
    /// How long a refusal (429) is held back at most before it is sent, in milliseconds
    /// (`CATAN_RATE_REFUSAL_DELAY_MS`): until the limit would allow the request, but no
    /// longer than this. A client that floods on a few connections then waits instead of
    /// keeping the server busy answering 429s.
    pub refusal_delay_ms: u64,
    /// Proxies whose `X-Forwarded-For` is believed (`CATAN_TRUSTED_PROXIES`: addresses or
    /// CIDR blocks, comma-separated). Empty: the peer address is the client's.
    pub trusted_proxies: Vec<IpBlock>,
    /// Threads that hash and verify passwords (`CATAN_HASH_THREADS`; default: one per core).
    pub hash_threads: usize,
    /// Password jobs that may wait for a hashing thread; beyond them a login or registration
    /// is a quick 503 (`CATAN_HASH_QUEUE`).
    pub hash_queue: usize,
}

/// After how many hours without a change an unfinished game stops counting toward
/// [`LimitsConfig::max_open_games`].
pub const IDLE_GAME_HOURS: i64 = 24;

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            login_per_account_per_min: 10,
            login_per_address_per_min: 30,
            register_per_account_per_min: 5,
            // Generous for what people and bots over HTTP do (a class behind one address
            // registering at once; a test suite making users for each game; a bot client
            // playing at machine speed, whose whole turn is one burst), while a flood of one
            // address or account stays bounded. Password hashes are bounded apart from these
            // (the hashing pool), so a registration burst cannot starve the games.
            register_per_address_per_min: 120,
            games_per_min: 60,
            moves_per_sec: 50,
            moves_burst: 200,
            // A bot that reads everything after every move of a fast game (game view, legal
            // moves, the log: ~10 reads per own move, 300 moves a second in a game of bots)
            // stays inside the burst for a minute and the rate for most of a game; one that
            // long-polls pays nothing for the wait.
            reads_per_sec: 100,
            reads_burst: 2000,
            // An analysis costs about what a move costs, without the database: a bot
            // searching over HTTP asks in bursts, then thinks.
            positions_per_sec: 20,
            positions_burst: 100,
            max_open_games: 20,
            refusal_delay_ms: 1000,
            trusted_proxies: Vec::new(),
            // Half the cores: a login flood without login limits then leaves the other half to
            // the games (scripts/bench-flood.sh).
            hash_threads: std::thread::available_parallelism().map_or(1, |cores| (cores.get() / 2).max(1)),
            hash_queue: 16,
        }
    }
}

impl LimitsConfig {
    /// Reads the `CATAN_RATE_*`, `CATAN_MAX_OPEN_GAMES`, `CATAN_TRUSTED_PROXIES` and
    /// `CATAN_HASH_*` variables; an unreadable value keeps the default (with a warning).
    pub fn from_env() -> LimitsConfig {
        let d = LimitsConfig::default();
        let number = |name: &str, default: u32| read_env(name, default);
        LimitsConfig {
            login_per_account_per_min: number("CATAN_RATE_LOGIN_PER_MIN", d.login_per_account_per_min),
            login_per_address_per_min: number("CATAN_RATE_LOGIN_PER_ADDRESS_PER_MIN", d.login_per_address_per_min),
            register_per_account_per_min: number("CATAN_RATE_REGISTER_PER_MIN", d.register_per_account_per_min),
            register_per_address_per_min: number(
                "CATAN_RATE_REGISTER_PER_ADDRESS_PER_MIN",
                d.register_per_address_per_min,
            ),
            games_per_min: number("CATAN_RATE_GAMES_PER_MIN", d.games_per_min),
            moves_per_sec: number("CATAN_RATE_MOVES_PER_SEC", d.moves_per_sec),
            moves_burst: number("CATAN_RATE_MOVES_BURST", d.moves_burst),
            reads_per_sec: number("CATAN_RATE_READS_PER_SEC", d.reads_per_sec),
            reads_burst: number("CATAN_RATE_READS_BURST", d.reads_burst),
            positions_per_sec: number("CATAN_RATE_POSITIONS_PER_SEC", d.positions_per_sec),
            positions_burst: number("CATAN_RATE_POSITIONS_BURST", d.positions_burst),
            max_open_games: number("CATAN_MAX_OPEN_GAMES", d.max_open_games),
            refusal_delay_ms: read_env("CATAN_RATE_REFUSAL_DELAY_MS", d.refusal_delay_ms),
            trusted_proxies: match std::env::var("CATAN_TRUSTED_PROXIES") {
                Ok(list) => parse_blocks(&list).unwrap_or_else(|bad| {
                    tracing::warn!(%bad, "CATAN_TRUSTED_PROXIES: not an address or CIDR block; trusting no proxy");
                    Vec::new()
                }),
                Err(_) => d.trusted_proxies,
            },
            hash_threads: read_env("CATAN_HASH_THREADS", d.hash_threads).max(1),
            hash_queue: read_env("CATAN_HASH_QUEUE", d.hash_queue),
        }
    }

    /// No rate limit and no cap on games (the hashing pool keeps its defaults).
    pub fn unlimited() -> LimitsConfig {
        LimitsConfig {
            login_per_account_per_min: 0,
            login_per_address_per_min: 0,
            register_per_account_per_min: 0,
            register_per_address_per_min: 0,
            games_per_min: 0,
            moves_per_sec: 0,
            moves_burst: 0,
            reads_per_sec: 0,
            reads_burst: 0,
            positions_per_sec: 0,
            positions_burst: 0,
            max_open_games: 0,
            refusal_delay_ms: 0,
            ..LimitsConfig::default()
        }
    }
}

fn read_env<T: std::str::FromStr + Copy + std::fmt::Display>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(value) if !value.trim().is_empty() => value.trim().parse().unwrap_or_else(|_| {
            tracing::warn!(%name, %value, %default, "not a number; using the default");
            default
        }),
        _ => default,
    }
}

/// An address, or a block of addresses (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpBlock {
    network: IpAddr,
    prefix: u8,
}

impl IpBlock {
    /// Whether `ip` is in the block.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl std::str::FromStr for IpBlock {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (address, prefix) = s.split_once('/').map_or((s, None), |(a, p)| (a, Some(p)));
        let network = canonical(address.parse::<IpAddr>().map_err(|_| s.to_owned())?);
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| s.to_owned())?,
            None => max,
        };
        Ok(IpBlock { network, prefix })
    }
}

/// Parses a comma-separated list of blocks; on failure, returns the entry that is not one.
fn parse_blocks(list: &str) -> Result<Vec<IpBlock>, String> {
    list.split(',').filter(|s| !s.trim().is_empty()).map(str::parse).collect()
}

/// An IPv4 address seen through IPv6 (`::ffff:a.b.c.d`) is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The key a client address is limited by: the address itself for IPv4, its /64 network
/// for IPv6 (one host usually holds a whole /64).
fn address_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        v4 => v4,
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy, in which case the
/// last address of `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_address(req: &HttpRequest, trusted: &[IpBlock]) -> Option<IpAddr> {
    let peer = canonical(req.peer_addr()?.ip());
    let is_trusted = |ip: IpAddr| trusted.iter().any(|block| block.contains(ip));
    if !is_trusted(peer) {
        return Some(peer);
    }
    let forwarded: Vec<IpAddr> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|hop| hop.trim().parse::<IpAddr>().map(canonical))
        .collect::<Result<_, _>>()
        // A list the proxy did not write cleanly names no one: limit the proxy itself.
        .unwrap_or_default();
    Some(forwarded.into_iter().rev().find(|ip| !is_trusted(*ip)).unwrap_or(peer))
}

/// The key a username is limited by: lowercased (names are case-insensitive), and no longer
/// than a name can be, so that made-up names cannot fill memory with long keys.
fn account_key(username: &str) -> String {
    username.chars().take(40).collect::<String>().to_ascii_lowercase()
}

/// The most keys one limiter keeps before it sweeps at once instead of once a minute.
pub const MAX_KEYS: usize = 100_000;

/// How often a limiter forgets keys that have regained their full burst.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// One keyed limit (absent when switched off).
struct Limit<K: Hash + Eq + Clone> {
    /// What is limited, for the problem's detail: "logins for this account".
    what: &'static str,
    limiter: Option<DefaultKeyedRateLimiter<K>>,
    last_sweep: Mutex<Instant>,
}

impl<K: Hash + Eq + Clone> Limit<K> {
    fn new(what: &'static str, quota: Option<Quota>) -> Self {
        Limit { what, limiter: quota.map(DefaultKeyedRateLimiter::keyed), last_sweep: Mutex::new(Instant::now()) }
    }

    /// `count` per minute, all of them at once if need be.
    fn per_minute(what: &'static str, count: u32) -> Self {
        Limit::new(what, NonZeroU32::new(count).map(Quota::per_minute))
    }

    fn check(&self, key: &K) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        self.sweep(limiter);
        limiter.check_key(key).map_err(|not_until| {
            let quota = not_until.quota();
            let wait = not_until.wait_time_from(limiter.clock().now());
            ApiError::Throttled(rate_limited(self.what, &quota, wait))
        })
    }

    fn sweep(&self, limiter: &DefaultKeyedRateLimiter<K>) {
        let mut last = self.last_sweep.lock().unwrap_or_else(|e| e.into_inner());
        let due =
            last.elapsed() >= SWEEP_EVERY || (limiter.len() > MAX_KEYS && last.elapsed() >= Duration::from_secs(1));
        if due {
            limiter.retain_recent();
            limiter.shrink_to_fit();
            *last = Instant::now();
        }
    }

    #[cfg(test)]
    fn keys(&self) -> usize {
        self.limiter.as_ref().map_or(0, DefaultKeyedRateLimiter::len)
    }
}

fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// A rate limit's refusal: 429 `rate_limited` with the limit's policy.
fn rate_limited(what: &str, quota: &Quota, wait: Duration) -> Throttled {
    let retry_after = whole_seconds(wait);
    Throttled {
        status: 429,
        code: "rate_limited",
        detail: format!("too many {what}; retry in {retry_after} s"),
        retry_after,
        policy: Some((quota.burst_size().get(), whole_seconds(quota.burst_size_replenished_in()))),
        wait,
    }
}

/// Whether a move counts toward the moves limit before it is played, whatever its outcome:
/// an offer and its withdrawal advance nothing, and a loop of them would write to the log
/// forever. Every other move counts only when it is rejected.
pub fn counts_before_playing(mv: &catan_engine::Move) -> bool {
    matches!(mv, catan_engine::Move::OfferTrade { .. } | catan_engine::Move::WithdrawTrade { .. })
}

/// Every limit of one server.
pub struct Limits {
    trusted_proxies: Vec<IpBlock>,
    login_account: Limit<String>,
    login_address: Limit<IpAddr>,
    register_account: Limit<String>,
    register_address: Limit<IpAddr>,
    games: Limit<Uuid>,
    moves: Limit<Uuid>,
    reads_account: Limit<Uuid>,
    reads_address: Limit<IpAddr>,
    positions: Limit<IpAddr>,
    max_open_games: u32,
    refusal_delay: Duration,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Limits(..)")
    }
}

impl Limits {
    pub fn new(config: &LimitsConfig) -> Limits {
        let per_second = |rate: u32, burst: u32| {
            NonZeroU32::new(rate)
                .map(|rate| Quota::per_second(rate).allow_burst(NonZeroU32::new(burst).unwrap_or(rate)))
        };
        let moves = per_second(config.moves_per_sec, config.moves_burst);
        let reads = per_second(config.reads_per_sec, config.reads_burst);
        let positions = per_second(config.positions_per_sec, config.positions_burst);
        Limits {
            trusted_proxies: config.trusted_proxies.clone(),
            login_account: Limit::per_minute("logins for this account", config.login_per_account_per_min),
            login_address: Limit::per_minute("logins from this address", config.login_per_address_per_min),
            register_account: Limit::per_minute("registrations of this username", config.register_per_account_per_min),
            register_address: Limit::per_minute("registrations from this address", config.register_per_address_per_min),
            games: Limit::per_minute("games created by this account", config.games_per_min),
            moves: Limit::new("rejected moves, offers and withdrawals by this account", moves),
            reads_account: Limit::new("reads by this account", reads),
            reads_address: Limit::new("reads without a token from this address", reads),
            positions: Limit::new("position analyses from this address", positions),
            max_open_games: config.max_open_games,
            refusal_delay: Duration::from_millis(config.refusal_delay_ms),
        }
    }

    fn address(&self, req: &HttpRequest) -> Option<IpAddr> {
        client_address(req, &self.trusted_proxies).map(address_key)
    }

    /// Holds a refusal back until the limit would allow the request, or the refusal delay
    /// at most, so that a client hammering on a few connections spends its time waiting.
    async fn answer(&self, result: Result<(), ApiError>) -> Result<(), ApiError> {
        if let Err(ApiError::Throttled(throttled)) = &result {
            let delay = throttled.wait.min(self.refusal_delay);
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
        }
        result
    }

    /// Counts a login attempt for `username` (any case) from the request's client. The
    /// address is checked first, so a flood of made-up names adds no keys once it is limited.
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn login(&self, req: &HttpRequest, username: &str) -> Result<(), ApiError> {
        let address = self.address(req);
        let checked = match address {
            Some(address) => self.login_address.check(&address),
            None => Ok(()),
        };
        self.answer(checked.and_then(|()| self.login_account.check(&account_key(username)))).await
    }

    /// Counts a registration of `username` (any case) from the request's client.
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn register(&self, req: &HttpRequest, username: &str) -> Result<(), ApiError> {
        let address = self.address(req);
        let checked = match address {
            Some(address) => self.register_address.check(&address),
            None => Ok(()),
        };
        self.answer(checked.and_then(|()| self.register_account.check(&account_key(username)))).await
    }

    /// Counts a game created by `user`.
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn create_game(&self, user: Uuid) -> Result<(), ApiError> {
        self.answer(self.games.check(&user)).await
    }

    /// Counts a move (or trade action) by `user` that does not advance a game: one that was
    /// rejected or replayed, or an offer or withdrawal ([`counts_before_playing`]).
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn play(&self, user: Uuid) -> Result<(), ApiError> {
        self.answer(self.moves.check(&user)).await
    }

    /// Counts a read by `user`, or by the request's client address without a token.
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn read(&self, req: &HttpRequest, user: Option<Uuid>) -> Result<(), ApiError> {
        let checked = match (user, self.address(req)) {
            (Some(user), _) => self.reads_account.check(&user),
            (None, Some(address)) => self.reads_address.check(&address),
            (None, None) => Ok(()),
        };
        self.answer(checked).await
    }

    /// Counts a position analysis asked for by the request's client address (the analyses
    /// take no token: they read and write nothing stored).
    ///
    /// # Errors
    /// 429 `rate_limited`.
    pub async fn analyse(&self, req: &HttpRequest) -> Result<(), ApiError> {
        let checked = match self.address(req) {
            Some(address) => self.positions.check(&address),
            None => Ok(()),
        };
        self.answer(checked).await
    }

    /// Refuses one more unfinished game for `user` once they created `max_open_games` games
    /// that are open or playing. Runs in the creating request's connection, just before the
    /// insert. A game nobody has changed for [`IDLE_GAME_HOURS`] no longer counts: an open game
    /// nobody joined, or a game its players left, cannot be finished by its creator, and must
    /// not lock the account out for good.
    ///
    /// # Errors
    /// 409 `too_many_games`, or a database error.
    pub fn check_open_games(&self, conn: &mut DbConnection, user: Uuid) -> Result<(), ApiError> {
        if self.max_open_games == 0 {
            return Ok(());
        }
        let unfinished = [GameStatus::Open.as_str(), GameStatus::Playing.as_str()];
        let count: i64 = games::table
            .filter(games::created_by.eq(user.to_string()))
            .filter(games::status.eq_any(unfinished))
            .filter(games::updated_at.gt(crate::store::now() - chrono::Duration::hours(IDLE_GAME_HOURS)))
            .count()
            .get_result(conn)?;
        if count >= i64::from(self.max_open_games) {
            return Err(ApiError::conflict(
                "too_many_games",
                format!(
                    "you have {count} games open or playing, the most one account may have ({}); \
                     finish or play out one of them first",
                    self.max_open_games
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use actix_web::test::TestRequest;

    fn throttled(result: Result<(), ApiError>) -> Throttled {
        match result {
            Err(ApiError::Throttled(t)) => t,
            other => panic!("expected a 429, got {other:?}"),
        }
    }

    #[test]
    fn a_burst_then_a_refusal_that_says_when_to_retry() {
        let limit = Limit::<u32>::per_minute("tries", 3);
        for _ in 0..3 {
            limit.check(&1).expect("within the burst");
        }
        let refused = throttled(limit.check(&1));
        assert_eq!((refused.status, refused.code), (429, "rate_limited"));
        // One more every 20 s: the wait is rounded up to whole seconds.
        assert!((19..=20).contains(&refused.retry_after), "{refused:?}");
        assert_eq!(refused.policy, Some((3, 60)));
        // Another key has its own budget.
        limit.check(&2).expect("another key");
    }

    #[test]
    fn a_zero_switches_a_limit_off() {
        let limits = Limits::new(&LimitsConfig::unlimited());
        let user = Uuid::new_v4();
        for _ in 0..1000 {
            limits.moves.check(&user).expect("no limit");
        }
    }

    #[test]
    fn moves_allow_a_burst_then_the_sustained_rate() {
        let limits = Limits::new(&LimitsConfig { moves_per_sec: 10, moves_burst: 20, ..LimitsConfig::default() });
        let user = Uuid::new_v4();
        for _ in 0..20 {
            limits.moves.check(&user).expect("a burst of 20");
        }
        let refused = throttled(limits.moves.check(&user));
        assert_eq!(refused.retry_after, 1);
        assert_eq!(refused.policy, Some((20, 2)));
    }

    #[test]
    fn reads_count_per_account_and_without_a_token_per_address() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let config = LimitsConfig { reads_per_sec: 1, reads_burst: 3, ..LimitsConfig::unlimited() };
        let limits = Limits::new(&config);
        let req = TestRequest::default().peer_addr("203.0.113.9:4000".parse().unwrap()).to_http_request();
        let (alice, bob) = (Uuid::new_v4(), Uuid::new_v4());
        for _ in 0..3 {
            runtime.block_on(limits.read(&req, Some(alice))).expect("a burst of 3");
        }
        throttled(runtime.block_on(limits.read(&req, Some(alice))));
        // Another account from the same address, and the address without a token, are apart.
        runtime.block_on(limits.read(&req, Some(bob))).expect("bob's own budget");
        for _ in 0..3 {
            runtime.block_on(limits.read(&req, None)).expect("the address's own budget");
        }
        throttled(runtime.block_on(limits.read(&req, None)));
    }

    #[test]
    fn only_offers_and_withdrawals_count_before_they_are_played() {
        use catan_engine::Move;
        assert!(counts_before_playing(&Move::WithdrawTrade { offer_id: 1 }));
        assert!(!counts_before_playing(&Move::RollDice));
        assert!(!counts_before_playing(&Move::AcceptTrade { offer_id: 1 }));
        assert!(!counts_before_playing(&Move::EndTurn));
    }

    #[test]
    fn position_analyses_are_limited_per_address() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let config = LimitsConfig { positions_per_sec: 1, positions_burst: 3, ..LimitsConfig::unlimited() };
        let limits = Limits::new(&config);
        let from = |peer: &str| TestRequest::default().peer_addr(peer.parse().unwrap()).to_http_request();
        for _ in 0..3 {
            runtime.block_on(limits.analyse(&from("203.0.113.9:4000"))).expect("a burst of 3");
        }
        let refused = throttled(runtime.block_on(limits.analyse(&from("203.0.113.9:4001"))));
        assert_eq!(refused.policy, Some((3, 3)));
        runtime.block_on(limits.analyse(&from("198.51.100.7:4000"))).expect("another address");
        let off = Limits::new(&LimitsConfig::unlimited());
        for _ in 0..1000 {
            runtime.block_on(off.analyse(&from("203.0.113.9:4000"))).expect("no limit");
        }
    }

    #[test]
    fn swept_keys_are_those_back_at_a_full_burst() {
        let limit = Limit::<u32>::new("tries", Quota::with_period(Duration::from_millis(1)));
        for key in 0..1000 {
            limit.check(&key).unwrap();
        }
        assert_eq!(limit.keys(), 1000);
        std::thread::sleep(Duration::from_millis(20));
        *limit.last_sweep.lock().unwrap() -= SWEEP_EVERY;
        limit.check(&5000).unwrap();
        assert!(limit.keys() <= 1, "{} keys left", limit.keys());
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let proxies = parse_blocks("10.0.0.0/8, ::1").unwrap();
        let from = |peer: &str, forwarded: &str| {
            let req = TestRequest::default()
                .peer_addr(peer.parse().unwrap())
                .insert_header(("X-Forwarded-For", forwarded))
                .to_http_request();
            client_address(&req, &proxies).unwrap().to_string()
        };
        // An untrusted peer's header is ignored.
        assert_eq!(from("203.0.113.9:4000", "1.2.3.4"), "203.0.113.9");
        // Through a trusted proxy: the last hop that is not a trusted proxy.
        assert_eq!(from("10.1.2.3:4000", "1.2.3.4, 198.51.100.7, 10.9.9.9"), "198.51.100.7");
        assert_eq!(from("[::1]:4000", "198.51.100.7"), "198.51.100.7");
        // A header that cannot be read names the proxy itself.
        assert_eq!(from("10.1.2.3:4000", "garbage"), "10.1.2.3");
        assert_eq!(from("[::ffff:203.0.113.9]:4000", "1.2.3.4"), "203.0.113.9");
        assert!(parse_blocks("10.0.0.0/33").is_err());
        assert!(parse_blocks("nonsense").is_err());
    }

    #[test]
    fn a_refusal_is_held_back_until_allowed_or_the_delay() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let config = LimitsConfig { games_per_min: 1, refusal_delay_ms: 300, ..LimitsConfig::unlimited() };
        let limits = Limits::new(&config);
        let user = Uuid::new_v4();
        runtime.block_on(limits.create_game(user)).expect("the first");
        let started = Instant::now();
        let refused = throttled(runtime.block_on(limits.create_game(user)));
        // The limit allows the next one in ~60 s: held back for the delay, not for that.
        assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());
        assert!(refused.wait > Duration::from_secs(50), "{refused:?}");
        // A limit that allows the next request sooner than the delay waits only that long.
        let config = LimitsConfig { moves_per_sec: 10, moves_burst: 1, refusal_delay_ms: 60_000, ..config };
        let limits = Limits::new(&config);
        runtime.block_on(limits.play(user)).expect("the first");
        let started = Instant::now();
        throttled(runtime.block_on(limits.play(user)));
        assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    }

    #[test]
    fn account_keys_are_lowercased_and_bounded() {
        assert_eq!(account_key("Alice"), "alice");
        assert_eq!(account_key(&"Z".repeat(70_000)), "z".repeat(40));
    }

    #[test]
    fn ipv6_clients_are_limited_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
    }
}
