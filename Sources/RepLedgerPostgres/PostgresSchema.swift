import Foundation
import PostgresNIO
import RepLedgerCore

/// The PostgreSQL schema, as an ordered list of migrations recorded in
/// `repledger_schema`. A migration is never edited once released; a change
/// is a new migration appended here.
///
/// Every primary and unique key leads with `account_id`, so each table can be
/// distributed by account (Citus-style) unchanged. The server works as the
/// role `repledger_app` (`SET ROLE` on every connection), which may read and
/// insert events but never UPDATE or DELETE them; a trigger refuses both for
/// every role besides. Erasure is the one privileged path: the function
/// `repledger_erase_account`, which runs with its owner's rights.
public enum PostgresSchema {
    public static let appRole = "repledger_app"

    /// Each migration is a list of statements (the extended protocol takes one at a time).
    static let migrations: [[String]] = [
        // 1: accounts, tokens, each account's head and its events.
        [
            """
            DO $$ BEGIN
                -- Roles belong to the cluster: another database's migration may be creating it at this moment.
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'repledger_app') THEN CREATE ROLE repledger_app NOLOGIN; END IF;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$
            """,
            """
            CREATE TABLE accounts (
                account_id uuid    PRIMARY KEY,
                name       text    NOT NULL,
                coach      boolean NOT NULL,
                created_at bigint  NOT NULL,
                erased_at  bigint
            )
            """,
            """
            CREATE TABLE tokens (
                account_id uuid   NOT NULL,
                token_hash bytea  NOT NULL,
                device     text   NOT NULL,
                created_at bigint NOT NULL,
                revoked_at bigint,
                PRIMARY KEY (account_id, token_hash)
            )
            """,
            // A bearer token names no account: found by its hash (not unique on
            // its own, so the table still distributes by account).
            """
            CREATE INDEX tokens_by_hash ON tokens (token_hash)
            """,
            // One row per account: the last position, its hash and time. Appends
            // lock it FOR UPDATE, which serializes one account's writers (across
            // every server process) and no one else's.
            """
            CREATE TABLE heads (
                account_id      uuid    PRIMARY KEY,
                position        bigint  NOT NULL,
                hash            bytea   NOT NULL,
                recorded_at     bigint  NOT NULL,
                recorded_offset integer NOT NULL
            )
            """,
            """
            CREATE TABLE events (
                account_id      uuid    NOT NULL,
                position        bigint  NOT NULL,
                event_id        uuid    NOT NULL,
                stream          text    NOT NULL,
                stream_version  bigint  NOT NULL,
                type            text    NOT NULL,
                type_code       integer NOT NULL,
                schema          integer NOT NULL,
                occurred_at     bigint  NOT NULL,
                occurred_offset integer NOT NULL,
                recorded_at     bigint  NOT NULL,
                recorded_offset integer NOT NULL,
                device          text    NOT NULL,
                causation_id    uuid,
                correlation_id  uuid,
                payload         bytea   NOT NULL,
                hash            bytea   NOT NULL,
                PRIMARY KEY (account_id, position),
                UNIQUE (account_id, event_id),
                UNIQUE (account_id, stream, stream_version)
            )
            """,
            // The log is append-only in the database itself: no role edits an
            // event, and rows leave only through repledger_erase_account.
            """
            CREATE FUNCTION repledger_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' AND current_setting('repledger.erasing', true) = OLD.account_id::text THEN RETURN OLD; END IF;
                RAISE EXCEPTION 'events are immutable: append a correcting event instead' USING ERRCODE = 'insufficient_privilege';
            END $$
            """,
            """
            CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
                FOR EACH ROW EXECUTE FUNCTION repledger_events_immutable()
            """,
            """
            CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
                FOR EACH STATEMENT EXECUTE FUNCTION repledger_events_immutable()
            """,
            // Erasure (SERVER-CONTRACT.md §3): the account's events, head and tokens go; the
            // account row stays, nameless, so its id is never reused.
            """
            CREATE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON accounts, tokens, heads, events FROM PUBLIC
            """,
            """
            REVOKE ALL ON FUNCTION repledger_erase_account(uuid) FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT ON events TO repledger_app
            """,
            """
            GRANT SELECT, INSERT, UPDATE ON heads TO repledger_app
            """,
            """
            GRANT SELECT, INSERT, UPDATE ON accounts TO repledger_app
            """,
            """
            GRANT SELECT, INSERT, UPDATE, DELETE ON tokens TO repledger_app
            """,
            """
            GRANT EXECUTE ON FUNCTION repledger_erase_account(uuid) TO repledger_app
            """,
        ],
        // 2: encryption at rest. Payloads stored in clear by the first release
        // are sealed in place by `repledger_seal_payloads`, the one path that
        // may change a stored row, and only its payload.
        [
            """
            CREATE OR REPLACE FUNCTION repledger_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' AND current_setting('repledger.erasing', true) = OLD.account_id::text THEN RETURN OLD; END IF;
                IF TG_OP = 'UPDATE' AND current_setting('repledger.sealing', true) = OLD.account_id::text
                   AND (NEW.account_id, NEW.position, NEW.event_id, NEW.stream, NEW.stream_version, NEW.type, NEW.hash)
                     = (OLD.account_id, OLD.position, OLD.event_id, OLD.stream, OLD.stream_version, OLD.type, OLD.hash) THEN
                    RETURN NEW;
                END IF;
                RAISE EXCEPTION 'events are immutable: append a correcting event instead' USING ERRCODE = 'insufficient_privilege';
            END $$
            """,
            """
            CREATE FUNCTION repledger_seal_payloads(account uuid, positions bigint[], payloads bytea[], OUT sealed bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.sealing', account::text, true);
                UPDATE events e SET payload = p.payload FROM unnest(positions, payloads) AS p(position, payload)
                    WHERE e.account_id = account AND e.position = p.position;
                GET DIAGNOSTICS sealed = ROW_COUNT;
                PERFORM set_config('repledger.sealing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON FUNCTION repledger_seal_payloads(uuid, bigint[], bytea[]) FROM PUBLIC
            """,
            """
            GRANT EXECUTE ON FUNCTION repledger_seal_payloads(uuid, bigint[], bytea[]) TO repledger_app
            """,
        ],
        // 3: snapshots of folds, by account, beside the events: caches that a
        // server process may add and prune (never facts; erasure deletes them).
        [
            """
            CREATE TABLE snapshots (
                account_id         uuid    NOT NULL,
                id                 bigint  GENERATED ALWAYS AS IDENTITY,
                projection         text    NOT NULL,
                projection_version bigint  NOT NULL,
                rules_id           text    NOT NULL,
                rules_version      bigint  NOT NULL,
                position           bigint  NOT NULL,
                created_at         bigint  NOT NULL,
                size               bigint  NOT NULL,
                checksum           bytea   NOT NULL,
                state              bytea   NOT NULL,
                position_hash      bytea,
                PRIMARY KEY (account_id, id)
            )
            """,
            """
            CREATE INDEX snapshots_by_projection ON snapshots (account_id, projection, position)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON snapshots FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT, DELETE ON snapshots TO repledger_app
            """,
        ],
        // 4: which clients' logs granted a coach access, so a roster reads its
        // clients and not every account (an index: the client's log decides),
        // and whether the logs written before it have been indexed. Erasure
        // removes the account's rows on either side.
        [
            """
            CREATE TABLE coach_clients (
                coach_id  uuid NOT NULL,
                client_id uuid NOT NULL,
                PRIMARY KEY (coach_id, client_id)
            )
            """,
            """
            CREATE INDEX coach_clients_by_client ON coach_clients (client_id)
            """,
            """
            CREATE TABLE backfills (name text PRIMARY KEY, done_at bigint NOT NULL)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM coach_clients g WHERE g.client_id = account OR g.coach_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON coach_clients, backfills FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT ON coach_clients, backfills TO repledger_app
            """,
        ],
        // 5: coaches' one-time invites (codes stored only as hashes); an erased coach's go with it.
        [
            """
            CREATE TABLE coach_invites (
                invite_id  uuid PRIMARY KEY,
                coach_id   uuid NOT NULL,
                code_hash  bytea NOT NULL UNIQUE,
                note       text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                used_at    bigint,
                used_by    uuid,
                revoked_at bigint
            )
            """,
            """
            CREATE INDEX coach_invites_by_coach ON coach_invites (coach_id)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM coach_clients g WHERE g.client_id = account OR g.coach_id = account;
                DELETE FROM coach_invites i WHERE i.coach_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON coach_invites FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT, UPDATE ON coach_invites TO repledger_app
            """,
        ],
        // 6: which account holds each store purchase (the first to prove it); an erased account's are released.
        [
            """
            CREATE TABLE purchase_claims (
                original_transaction_id text   PRIMARY KEY,
                account_id              uuid   NOT NULL,
                claimed_at              bigint NOT NULL
            )
            """,
            """
            CREATE INDEX purchase_claims_by_account ON purchase_claims (account_id)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM coach_clients g WHERE g.client_id = account OR g.coach_id = account;
                DELETE FROM coach_invites i WHERE i.coach_id = account;
                DELETE FROM purchase_claims p WHERE p.account_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON purchase_claims FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT ON purchase_claims TO repledger_app
            """,
        ],
        // 7: what a token may do (`TokenScope`; every older token is `full`), its sealed name and when it ends.
        [
            """
            ALTER TABLE tokens ADD COLUMN scope text NOT NULL DEFAULT 'full', ADD COLUMN name text, ADD COLUMN expires_at bigint
            """
        ],
        // 8: webhooks (their secrets sealed under the account's key) and each one's delivery log; an erased account's go with it.
        [
            """
            CREATE TABLE webhooks (
                account_id uuid   NOT NULL,
                hook_id    uuid   NOT NULL UNIQUE,
                url        text   NOT NULL,
                events     text   NOT NULL,
                secret     text   NOT NULL,
                created_at bigint NOT NULL,
                removed_at bigint,
                cursor     bigint NOT NULL,
                PRIMARY KEY (account_id, hook_id)
            )
            """,
            """
            CREATE TABLE webhook_attempts (
                account_id  uuid   NOT NULL,
                id          bigint GENERATED ALWAYS AS IDENTITY,
                hook_id     uuid   NOT NULL,
                delivery_id text   NOT NULL,
                position    bigint NOT NULL,
                type        text   NOT NULL,
                attempt     integer NOT NULL,
                status      integer NOT NULL,
                error       text,
                at          bigint NOT NULL,
                PRIMARY KEY (account_id, id)
            )
            """,
            """
            CREATE INDEX webhook_attempts_by_hook ON webhook_attempts (hook_id, at)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM coach_clients g WHERE g.client_id = account OR g.coach_id = account;
                DELETE FROM coach_invites i WHERE i.coach_id = account;
                DELETE FROM purchase_claims p WHERE p.account_id = account;
                DELETE FROM webhook_attempts w WHERE w.account_id = account;
                DELETE FROM webhooks w WHERE w.account_id = account;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON webhooks, webhook_attempts FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT, UPDATE ON webhooks TO repledger_app
            """,
            """
            GRANT SELECT, INSERT ON webhook_attempts TO repledger_app
            """,
        ],
        // 9: accounts people make themselves: their Apple user or email address (hashed), codes waiting,
        // proofs used once, and the hashes of tokens an erasure removed (its devices then hear 410).
        [
            """
            CREATE TABLE sign_in_identities (
                provider   text   NOT NULL,
                subject    bytea  NOT NULL,
                account_id uuid   NOT NULL,
                created_at bigint NOT NULL,
                PRIMARY KEY (provider, subject)
            )
            """,
            """
            CREATE INDEX sign_in_identities_by_account ON sign_in_identities (account_id)
            """,
            """
            CREATE TABLE sign_in_codes (email bytea PRIMARY KEY, code_hash bytea NOT NULL, expires_at bigint NOT NULL, attempts integer NOT NULL)
            """,
            """
            CREATE TABLE sign_in_once (proof bytea PRIMARY KEY, expires_at bigint NOT NULL)
            """,
            """
            CREATE TABLE erased_tokens (token_hash bytea PRIMARY KEY, erased_at bigint NOT NULL)
            """,
            """
            CREATE OR REPLACE FUNCTION repledger_erase_account(account uuid, OUT events bigint, OUT tokens bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
            BEGIN
                PERFORM set_config('repledger.erasing', account::text, true);
                DELETE FROM events e WHERE e.account_id = account;
                GET DIAGNOSTICS events = ROW_COUNT;
                DELETE FROM snapshots s WHERE s.account_id = account;
                DELETE FROM heads h WHERE h.account_id = account;
                DELETE FROM coach_clients g WHERE g.client_id = account OR g.coach_id = account;
                DELETE FROM coach_invites i WHERE i.coach_id = account;
                DELETE FROM purchase_claims p WHERE p.account_id = account;
                DELETE FROM webhook_attempts w WHERE w.account_id = account;
                DELETE FROM webhooks w WHERE w.account_id = account;
                DELETE FROM sign_in_identities s WHERE s.account_id = account;
                INSERT INTO erased_tokens (token_hash, erased_at)
                    SELECT t.token_hash, (extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM tokens t WHERE t.account_id = account
                    ON CONFLICT DO NOTHING;
                DELETE FROM tokens t WHERE t.account_id = account;
                GET DIAGNOSTICS tokens = ROW_COUNT;
                UPDATE accounts a SET erased_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, name = '' WHERE a.account_id = account;
                PERFORM set_config('repledger.erasing', '', true);
            END $$
            """,
            """
            REVOKE ALL ON sign_in_identities, sign_in_codes, sign_in_once, erased_tokens FROM PUBLIC
            """,
            """
            GRANT SELECT, INSERT ON sign_in_identities TO repledger_app
            """,
            """
            GRANT SELECT, INSERT, UPDATE, DELETE ON sign_in_codes, sign_in_once TO repledger_app
            """,
            """
            GRANT SELECT ON erased_tokens TO repledger_app
            """,
        ],
    ]

    public static var currentVersion: Int { migrations.count }

    /// Brings the database to the current schema (under an advisory lock, so
    /// servers starting together migrate once), then makes every later
    /// connection of the pool work as the app role. The URL's user must own
    /// the schema (or be able to create it) and be a member of the app role.
    public static func prepare(_ pool: PostgresPool) throws {
        try pool.transaction { c in
            try pool.run(c, "SELECT pg_advisory_xact_lock(7362105011)")
            try pool.run(
                c, "CREATE TABLE IF NOT EXISTS repledger_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            let rows = try pool.run(c, "SELECT COALESCE(MAX(version), 0)::bigint FROM repledger_schema")
            let found = Int(try rows.rows.first?.decode(Int64.self) ?? 0)
            guard found <= migrations.count else {
                throw StoreError.newerSchema(found: Int64(found), supported: Int64(migrations.count))
            }
            try checkRoleRights(pool, c)
            for (i, statements) in migrations.enumerated() where i >= found {
                for sql in statements { try pool.run(c, PostgresQuery(unsafeSQL: sql)) }
                try pool.run(c, "INSERT INTO repledger_schema (version) VALUES (\(i + 1))")
            }
            // The URL's user may work as the app role: a superuser can already.
            try pool.run(
                c,
                PostgresQuery(
                    unsafeSQL: """
                        DO $$ BEGIN
                            IF NOT pg_has_role(current_user, 'repledger_app', 'MEMBER') THEN EXECUTE format('GRANT repledger_app TO %I', current_user); END IF;
                        END $$
                        """))
        }
        pool.workingRole = appRole
        pool.shutdown()
    }

    /// What an administrator runs once for a URL user that may not create
    /// roles (no `CREATEROLE`, not a superuser): the app role, and the user
    /// made a member of it. Everything else the user does as the owner of
    /// its database.
    public static func administratorSetUp(user: String) -> String {
        "CREATE ROLE \(appRole) NOLOGIN; GRANT \(appRole) TO \(user);"
    }

    /// A URL user that cannot create the app role, or join it, is refused in
    /// one line that names the statements an administrator runs, instead of
    /// PostgreSQL's "permission denied to create role" halfway through.
    private static func checkRoleRights(_ pool: PostgresPool, _ c: PostgresConnection) throws {
        let rows = try pool.run(
            c,
            PostgresQuery(
                unsafeSQL: """
                    SELECT current_user::text,
                           EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(appRole)'),
                           COALESCE((SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user), false),
                           EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(appRole)' AND pg_has_role(current_user, oid, 'MEMBER'))
                    """))
        guard let row = rows.rows.first else { return }
        let (user, exists, mayCreateRoles, member) = try row.decode((String, Bool, Bool, Bool).self)
        guard !member, !mayCreateRoles else { return }
        let why = exists ? "is not a member of the role \(appRole)" : "may not create the role \(appRole)"
        throw StoreError.database("the PostgreSQL user \(user) \(why); an administrator runs once: \(administratorSetUp(user: user))")
    }
}
