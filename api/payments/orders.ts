// The payment_orders table: one row per checkout started, the ledger every ECPay notification is checked against.
import type { Sql } from '../db/database'
import type { PlanDefinition, PlanId } from './plans'

export type OrderKind = 'one-time' | 'subscription'
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'cancelled'

export interface OrderRow {
  id: string
  merchant_trade_no: string
  user_id: string
  plan_id: PlanId
  kind: OrderKind
  amount_twd: number
  period_type: 'M' | 'Y'
  status: OrderStatus
  ecpay_trade_no: string | null
  periods_paid: number
  created_at: Date
  paid_at: Date | null
  cancelled_at: Date | null
}

export interface NewOrder {
  merchantTradeNo: string
  userId: string
  plan: PlanDefinition
  kind: OrderKind
  amountTwd: number
}

export async function insertOrder(sql: Sql, o: NewOrder): Promise<OrderRow> {
  const [row] = await sql<OrderRow[]>`
    insert into payment_orders (merchant_trade_no, user_id, plan_id, kind, amount_twd, period_type)
    values (${o.merchantTradeNo}, ${o.userId}, ${o.plan.id}, ${o.kind}, ${o.amountTwd}, ${o.plan.periodType})
    returning *`
  return row
}

export async function findOrder(sql: Sql, merchantTradeNo: string): Promise<OrderRow | null> {
  const [row] = await sql<OrderRow[]>`select * from payment_orders where merchant_trade_no = ${merchantTradeNo}`
  return row ?? null
}

/** The user's running ECPay schedule: the most recently paid subscription order not yet cancelled. */
export async function activeSubscriptionOrder(sql: Sql, userId: string): Promise<OrderRow | null> {
  const [row] = await sql<OrderRow[]>`
    select * from payment_orders
    where user_id = ${userId} and kind = 'subscription' and status = 'paid'
    order by paid_at desc limit 1`
  return row ?? null
}
