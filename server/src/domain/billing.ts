/** A buyer's billing details (docs/invoices.md): who their invoices are made out to; a GSTIN must be of the address's state. */
import { gstinProblem } from '@auction/shared';
import type { BillingRow, UnitOfWork } from '../db/index.js';
import { refuse, type Result } from '../errors.js';

export async function saveBilling(tx: UnitOfWork, details: Omit<BillingRow, 'updatedAt'>, now: number): Promise<Result<{ billing: BillingRow }>> {
  if (details.gstin !== null) {
    const problem = gstinProblem(details.gstin, details.stateCode);
    if (problem) return refuse('VALIDATION', problem, 'gstin');
  }
  return { ok: true, billing: await tx.saveBilling(details, now) };
}
