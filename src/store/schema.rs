// @generated-style diesel schema, kept in sync with migrations/{postgres,sqlite}.
// Only types both backends share (Text, Integer, BigInt, Double, Bool, Timestamp) appear here, so one
// diesel code path serves PostgreSQL and SQLite.

diesel::table! {
    users (id) {
        id -> Text,
        username -> Text,
        password_hash -> Text,
        created_at -> Timestamp,
        username_key -> Text,
        kind -> Text,
        kind_changed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        created_by -> Text,
        status -> Text,
        max_players -> Integer,
        config -> Text,
        seed -> BigInt,
        version -> BigInt,
        snapshot -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        seeded -> Bool,
        imported_from -> Nullable<Text>,
        position -> Nullable<Text>,
        rated -> Bool,
        pool -> Nullable<Text>,
    }
}

diesel::table! {
    game_players (game_id, seat) {
        game_id -> Text,
        seat -> Integer,
        user_id -> Nullable<Text>,
        joined_at -> Timestamp,
        bot -> Nullable<Text>,
        imported_name -> Nullable<Text>,
    }
}

diesel::table! {
    game_moves (game_id, seq) {
        game_id -> Text,
        seq -> BigInt,
        seat -> Nullable<Integer>,
        kind -> Text,
        move_body -> Nullable<Text>,
        events -> Text,
        idempotency_key -> Nullable<Text>,
        created_at -> Timestamp,
        bot -> Nullable<Text>,
        phase -> Nullable<Text>,
        waiting_for -> Nullable<Text>,
        chance -> Nullable<Text>,
    }
}

diesel::joinable!(game_players -> users (user_id));
diesel::joinable!(game_players -> games (game_id));
diesel::joinable!(game_moves -> games (game_id));
diesel::joinable!(games -> users (created_by));

diesel::allow_tables_to_appear_in_same_query!(users, games, game_players, game_moves);

diesel::table! {
    trade_offers (game_id, offer_id) {
        game_id -> Text,
        offer_id -> BigInt,
        from_seat -> Integer,
        to_seats -> Text,
        give -> Text,
        get -> Text,
        counter_to -> Nullable<BigInt>,
        status -> Text,
        accepted_by -> Text,
        declined_by -> Text,
        completed_with -> Nullable<Integer>,
        offered_seq -> BigInt,
        updated_seq -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    idempotency_keys (scope, idem_key) {
        scope -> Text,
        idem_key -> Text,
        request -> Text,
        status -> Nullable<Integer>,
        body -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(trade_offers -> games (game_id));

diesel::table! {
    revoked_tokens (jti) {
        jti -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    ratings (user_id, pool) {
        user_id -> Text,
        pool -> Text,
        rating -> Double,
        deviation -> Double,
        score -> Double,
        games -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    rating_history (user_id, game_id) {
        user_id -> Text,
        game_id -> Text,
        pool -> Text,
        place -> Integer,
        players -> Integer,
        abandoned -> Bool,
        rating_before -> Double,
        deviation_before -> Double,
        rating -> Double,
        deviation -> Double,
        created_at -> Timestamp,
    }
}

diesel::table! {
    seeks (id) {
        id -> Text,
        user_id -> Text,
        pool -> Text,
        players -> Integer,
        rated -> Bool,
        rating_min -> Nullable<Double>,
        rating_max -> Nullable<Double>,
        fill_bot -> Nullable<Text>,
        fill_at -> Nullable<Timestamp>,
        status -> Text,
        game_id -> Nullable<Text>,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    matchmaking_lock (name) {
        name -> Text,
        turns -> BigInt,
    }
}

diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(rating_history -> users (user_id));
diesel::joinable!(seeks -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(ratings, users);
diesel::allow_tables_to_appear_in_same_query!(rating_history, users);
diesel::allow_tables_to_appear_in_same_query!(seeks, users);
diesel::allow_tables_to_appear_in_same_query!(rating_history, games);
