import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'

/**
 * A box purchase on PostgreSQL in one round trip (issue 25 item 1): shop_purchase runs the rules of
 * domain/purchase.ts (the numbered list at its top, in that order) and the moves, and records the
 * idempotency key with the answer, in one statement; domain/purchaseOnPostgres.ts calls it and turns
 * its answer into the same result or ApiFailure as the step-by-step path. SQLite has no such function
 * and keeps the step-by-step path.
 *
 * It answers jsonb, one of:
 *   {stored: {scope, request_hash, response}}   the key was used before (TypeScript decides: replay or 409)
 *   {refusal: {code, ...data}}                  a rule refused; nothing was changed
 *   {result: PurchaseResult, newCase, seriesId} bought; newCase: the series has no case on sale left
 *                                               (only with p_in_tx: the caller makes one before COMMIT)
 * and raises
 *   BB001  the purchase sold out the series' last case on sale outside a transaction (p_in_tx false):
 *          everything is undone; the caller runs it again inside a transaction and makes the next case
 *   BB002  a move found the world other than the rules saw it (cannot happen while the locks hold; kept
 *          as the step-by-step path keeps it): the message is the refusal as JSON, everything is undone
 * Locks in the order of the step-by-step path: the account (key share), the case, the wallet, the
 * series (at a sell-out), the idempotency key.
 */
export const FUNCTION = `
create or replace function shop_purchase_refuse(p_user bigint, p_key text, p_refusal jsonb) returns jsonb
language sql volatile as $fn$
  -- a refusal answers the key's first answer when the key was used meanwhile (a twin committed first)
  select coalesce(
    (select jsonb_build_object('stored', jsonb_build_object('scope', scope, 'request_hash', request_hash, 'response', response))
       from idempotency_keys where user_id = p_user and key = p_key),
    jsonb_build_object('refusal', p_refusal))
$fn$;

create or replace function shop_purchase(
  p_user bigint, p_key text, p_scope text, p_hash text,
  p_case bigint, p_slots integer[], p_price bigint,
  p_now timestamptz, p_today text, p_day_start timestamptz, p_month_start timestamptz,
  p_min_age integer, p_adult_age integer, p_minor_cap bigint, p_xray_cards integer,
  p_spending_kinds text[], p_ledger_key text, p_in_tx boolean
) returns jsonb language plpgsql volatile as $fn$
declare
  v_stored jsonb;
  v_found boolean;
  v_deleted timestamptz;
  v_birth text;
  v_consented timestamptz;
  v_age integer;
  v_minor_cap bigint := null;
  v_series bigint;
  v_size integer;
  v_status text;
  v_series_status text;
  v_price bigint;
  v_hidden_ppm integer;
  v_slots integer[];
  v_slot integer;
  v_reserved boolean;
  v_total bigint;
  v_cash_had bigint := 0;
  v_credit_had bigint := 0;
  v_limit record;
  v_daily bigint := null;
  v_monthly bigint := null;
  v_day_spent bigint := 0;
  v_month_spent bigint := 0;
  v_left bigint;
  v_cap_kind text := null;
  v_cap_limit bigint;
  v_cap_left bigint;
  v_credit bigint;
  v_cash bigint;
  v_shortfall bigint;
  v_sold_count integer;
  v_case_size integer;
  v_marked_slots integer[];
  v_marked_designs bigint[];
  v_cash_after bigint;
  v_credit_after bigint;
  v_tx bigint;
  v_purchase bigint;
  v_prizes jsonb;
  v_new_case boolean := false;
  v_result jsonb;
begin
  -- a key used before answers by itself (and again before any refusal: a twin may commit meanwhile)
  select jsonb_build_object('scope', scope, 'request_hash', request_hash, 'response', response) into v_stored
    from idempotency_keys where user_id = p_user and key = p_key;
  if v_stored is not null then
    return jsonb_build_object('stored', v_stored);
  end if;

  -- a live account (domain/users.ts lockLiveAccount)
  select deleted_at into v_deleted from users where id = p_user for key share;
  if not found or v_deleted is not null then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'auth.required'));
  end if;

  -- 2. the age gate (domain/age.ts purchaseGate)
  select birth_date, guardian_consented_at into v_birth, v_consented from age_checks where user_id = p_user;
  if not found then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'age.required'));
  end if;
  v_age := substr(p_today, 1, 4)::integer - substr(v_birth, 1, 4)::integer
    - case when substr(p_today, 6, 5) < substr(v_birth, 6, 5) then 1 else 0 end;
  if v_age < p_min_age then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'age.tooYoung'));
  end if;
  if v_age < p_adult_age then
    if v_consented is null then
      return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'age.guardianRequired'));
    end if;
    v_minor_cap := p_minor_cap;
  end if;

  -- 3. the case (locked) and its series, on sale; the slots inside the case
  select c.series_id, c.size, c.status, s.status, s.price_cents, s.hidden_ppm
    into v_series, v_size, v_status, v_series_status, v_price, v_hidden_ppm
    from cases c join series s on s.id = c.series_id where c.id = p_case
    for no key update of c;
  v_found := found;
  if not v_found or v_status <> 'on_sale' or v_series_status <> 'on_sale' then
    if v_found and v_series_status in ('on_sale', 'retired') then
      return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'case.notOnSale'));
    end if;
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'case.notFound'));
  end if;
  if p_slots is not null then
    select u.s into v_slot from unnest(p_slots) with ordinality u(s, i) where u.s > v_size order by u.i limit 1;
    if found then
      return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'slot.outOfRange', 'slot', v_slot, 'size', v_size));
    end if;
  end if;

  -- 4. the slots still free (the first one asked for that is sold), none held for another shopper
  if p_slots is not null then
    select u.s into v_slot from unnest(p_slots) with ordinality u(s, i)
      where not exists (select 1 from case_slots cs where cs.case_id = p_case and cs.slot = u.s and cs.sold_to is null)
      order by u.i limit 1;
    if found then
      return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'slot.sold', 'slot', v_slot));
    end if;
    v_slots := p_slots;
  else
    select array_agg(slot order by slot) into v_slots from case_slots where case_id = p_case and sold_to is null;
    if v_slots is null then
      return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'case.notOnSale'));
    end if;
  end if;
  select r.slot into v_slot from slot_reservations r
    where r.case_id = p_case and r.slot = any(v_slots) and r.user_id <> p_user and r.expires_at > p_now
    order by r.slot limit 1;
  if found then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'slot.reserved', 'slot', v_slot));
  end if;
  v_reserved := exists (select 1 from slot_reservations r where r.case_id = p_case and r.slot = any(v_slots));

  -- 5. the price the buyer was shown
  if p_price is not null and p_price <> v_price then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'purchase.priceChanged', 'priceCents', v_price));
  end if;
  v_total := v_price * cardinality(v_slots);

  -- 6. the wallet (locked), then a minor's daily cap and the shopper's own limits: the stricter refuses
  select cash_cents, credit_cents into v_cash_had, v_credit_had from wallets where user_id = p_user for no key update;
  if not found then
    v_cash_had := 0;
    v_credit_had := 0;
  end if;
  for v_limit in select kind, cents, pending_cents, pending_set, pending_at from spending_limits where user_id = p_user loop
    -- the limit in force now (domain/security.ts readLimit)
    v_left := case when v_limit.pending_set <> 0 and v_limit.pending_at is not null
      then case when v_limit.pending_at <= p_now then v_limit.pending_cents else v_limit.cents end
      else v_limit.cents end;
    if v_limit.kind = 'daily' then v_daily := v_left; elsif v_limit.kind = 'monthly' then v_monthly := v_left; end if;
  end loop;
  if v_minor_cap is not null or v_daily is not null then
    select -coalesce(sum(l.amount_cents), 0) into v_day_spent
      from ledger_lines l join ledger_transactions t on t.id = l.tx_id
      where l.user_id = p_user and l.account in ('user_cash', 'user_credit') and t.kind = any(p_spending_kinds)
        and t.created_at >= p_day_start;
  end if;
  if v_monthly is not null then
    select -coalesce(sum(l.amount_cents), 0) into v_month_spent
      from ledger_lines l join ledger_transactions t on t.id = l.tx_id
      where l.user_id = p_user and l.account in ('user_cash', 'user_credit') and t.kind = any(p_spending_kinds)
        and t.created_at >= p_month_start;
  end if;
  -- the passed cap with the least left; on a tie the first of minor, daily, monthly
  if v_minor_cap is not null then
    v_left := greatest(0, v_minor_cap - v_day_spent);
    if v_total > v_left then v_cap_kind := 'minor'; v_cap_limit := v_minor_cap; v_cap_left := v_left; end if;
  end if;
  if v_daily is not null then
    v_left := greatest(0, v_daily - v_day_spent);
    if v_total > v_left and (v_cap_kind is null or v_left < v_cap_left) then v_cap_kind := 'daily'; v_cap_limit := v_daily; v_cap_left := v_left; end if;
  end if;
  if v_monthly is not null then
    v_left := greatest(0, v_monthly - v_month_spent);
    if v_total > v_left and (v_cap_kind is null or v_left < v_cap_left) then v_cap_kind := 'monthly'; v_cap_limit := v_monthly; v_cap_left := v_left; end if;
  end if;
  if v_cap_kind is not null then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'spending.cap', 'kind', v_cap_kind, 'limitCents', v_cap_limit, 'leftCents', v_cap_left));
  end if;

  -- 7. credit first, then cash; what the wallet lacks is the shortfall
  v_credit := least(v_credit_had, v_total);
  v_cash := v_total - v_credit;
  v_shortfall := greatest(0, v_cash - v_cash_had);
  if v_shortfall > 0 then
    return shop_purchase_refuse(p_user, p_key, jsonb_build_object('code', 'wallet.insufficient', 'shortfallCents', v_shortfall, 'totalCents', v_total));
  end if;

  -- the moves: the case's count of sold slots, then the slots, sold only if nobody has them
  update cases set sold_count = sold_count + cardinality(v_slots) where id = p_case and status = 'on_sale'
    returning size, sold_count into v_case_size, v_sold_count;
  if not found then
    raise exception using errcode = 'BB002', message = jsonb_build_object('code', 'case.notOnSale')::text;
  end if;
  with marked as (
    update case_slots set sold_to = p_user, sold_at = p_now
      where case_id = p_case and sold_to is null and slot = any(v_slots)
      returning slot, design_id
  )
  select array_agg(slot order by slot), array_agg(design_id order by slot) into v_marked_slots, v_marked_designs from marked;
  if coalesce(cardinality(v_marked_slots), 0) < cardinality(v_slots) then
    select u.s into v_slot from unnest(v_slots) with ordinality u(s, i) where not (u.s = any(coalesce(v_marked_slots, '{}'))) order by u.i limit 1;
    raise exception using errcode = 'BB002', message = jsonb_build_object('code', 'slot.sold', 'slot', v_slot)::text;
  end if;

  -- the buyer's own X-ray holds (and lapsed ones) are used up; a whole case earns X-ray cards
  if v_reserved then
    delete from slot_reservations where case_id = p_case and slot = any(v_slots);
  end if;
  if p_xray_cards > 0 then
    insert into prop_inventory (user_id, kind, count, updated_at) values (p_user, 'xray', p_xray_cards, p_now)
      on conflict (user_id, kind) do update set count = prop_inventory.count + p_xray_cards, updated_at = p_now;
  end if;

  -- the money: never below zero
  update wallets set cash_cents = cash_cents - v_cash, credit_cents = credit_cents - v_credit, updated_at = p_now
    where user_id = p_user and cash_cents >= v_cash and credit_cents >= v_credit
    returning cash_cents, credit_cents into v_cash_after, v_credit_after;
  if not found then
    raise exception using errcode = 'BB002', message = jsonb_build_object('code', 'wallet.insufficient',
      'shortfallCents', greatest(0, v_total - v_cash_had - v_credit_had), 'totalCents', v_total)::text;
  end if;

  -- the books (domain/ledger.ts postTransaction: lines of zero left out), the purchase and its prizes
  insert into ledger_transactions (kind, reference, idempotency_key, user_id, created_at)
    values ('purchase', left('case ' || p_case || ' slots ' || array_to_string(v_slots, ','), 200), p_ledger_key, p_user, p_now)
    returning id into v_tx;
  insert into ledger_lines (tx_id, account, user_id, amount_cents)
    select v_tx, l.account, l.user_id, l.amount from (values
      (1, 'user_credit', p_user, -v_credit), (2, 'user_cash', p_user, -v_cash), (3, 'house_sales', null::bigint, v_total)
    ) as l(n, account, user_id, amount)
    where l.amount <> 0 order by l.n;
  insert into purchases (user_id, case_id, series_id, slots, total_cents, credit_cents, cash_cents, tx_id, created_at)
    values (p_user, p_case, v_series, '[' || array_to_string(v_slots, ',') || ']', v_total, v_credit, v_cash, v_tx, p_now)
    returning id into v_purchase;
  -- each prize with its design as domain/catalogue.ts designInfo shows it (odds as types/odds.ts seriesOdds
  -- computes them: num / (N R 1e6), rounded as Math.round rounds)
  with inserted as (
    insert into prizes (user_id, series_id, design_id, case_id, slot, purchase_id, status, created_at, updated_at)
      select p_user, v_series, m.design, p_case, u.s, v_purchase, 'warehouse', p_now, p_now
        from unnest(v_slots) with ordinality u(s, i) join unnest(v_marked_slots, v_marked_designs) m(slot, design) on m.slot = u.s
        order by u.i
      returning id, slot, design_id
  ), counts as (
    select count(*) filter (where rarity = 'regular') as r, count(*) filter (where rarity in ('regular', 'rare')) as n
      from designs where series_id = v_series
  ), odds as (
    select d.*, (case d.rarity when 'hidden' then v_hidden_ppm::float8 * k.r when 'rare' then 1000000::float8 * k.r
      else 1000000::float8 * k.r - v_hidden_ppm end) * 1000000::float8 / (k.n * k.r * 1000000)::float8 as y
      from designs d, counts k where d.series_id = v_series
  )
  select jsonb_agg(jsonb_build_object(
      'prizeId', p.id, 'caseId', p_case, 'slot', p.slot,
      'design', jsonb_build_object(
        'id', d.id,
        'name', jsonb_build_object('zh', d.name, 'en', case when d.name_en <> '' then d.name_en else d.name end),
        'image', coalesce(d.image, ''),
        'rarity', d.rarity,
        'referenceValueCents', d.reference_value_cents,
        'recycleValueCents', d.recycle_value_cents,
        'oddsPpm', (floor(d.y) + case when d.y - floor(d.y) >= 0.5 then 1 else 0 end)::bigint
      ) || case when d.alt <> '' or d.alt_en <> ''
        then jsonb_build_object('alt', jsonb_build_object('zh', d.alt, 'en', case when d.alt_en <> '' then d.alt_en else d.alt end))
        else '{}'::jsonb end
    ) order by p.slot) into v_prizes
    from inserted p join odds d on d.id = p.design_id;

  -- sold out: revealed; sell-outs of one series take turns on the series row, so the last one sees the others
  if v_sold_count >= v_case_size then
    update cases set status = 'sold_out', revealed_at = p_now where id = p_case;
    delete from case_leases where case_id = p_case;
    perform 1 from series where id = v_series for no key update;
    if not exists (select 1 from cases where series_id = v_series and status = 'on_sale') then
      if not p_in_tx then
        raise exception using errcode = 'BB001', message = 'the series needs a new case: run the purchase in a transaction';
      end if;
      v_new_case := true;
    end if;
  end if;

  v_result := jsonb_build_object(
    'purchaseId', v_purchase, 'caseId', p_case, 'seriesId', v_series, 'totalCents', v_total,
    'spentCreditCents', v_credit, 'spentCashCents', v_cash, 'prizes', v_prizes,
    'balance', jsonb_build_object('cashCents', v_cash_after, 'creditCents', v_credit_after),
    'xrayCardsEarned', p_xray_cards);
  insert into idempotency_keys (user_id, key, scope, request_hash, response, created_at)
    values (p_user, p_key, p_scope, p_hash, v_result::text, p_now);
  return jsonb_build_object('result', v_result, 'newCase', v_new_case, 'seriesId', v_series);
end
$fn$;
`

export function purchaseFunction (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(FUNCTION).execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw('drop function if exists shop_purchase(bigint, text, text, text, bigint, integer[], bigint, timestamptz, text, timestamptz, timestamptz, integer, integer, bigint, integer, text[], text, boolean); drop function if exists shop_purchase_refuse(bigint, text, jsonb)').execute(db)
    }
  }
}
