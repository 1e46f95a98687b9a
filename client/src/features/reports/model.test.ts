import { describe, expect, it } from 'vitest';
import type { Reports } from '@auction/shared';
import { chartRows, reportCsv, reportFilename, reportStats } from './model';

const data: Reports = {
  auctions: [
    { id: 'A1', name: '=HYPERLINK("x")', valid_until: '2026-03-01T10:00:00.000Z', status: 'settled', product_count: 2, bid_count: 3, revenue: 1500.5, pending: 0 },
    { id: 'A2', name: 'Art, "modern"', valid_until: '2026-04-01T10:00:00.000Z', status: 'active', product_count: 1, bid_count: 1, revenue: 0, pending: 200.25 },
    { id: 'A3', name: 'Empty', valid_until: '2026-05-01T10:00:00.000Z', status: 'ended', product_count: 0, bid_count: 0, revenue: 0, pending: 0 },
  ],
  products: [
    { id: 'P1', name: '+cmd', description: 'line one\nline two', status: 'sold', auction_id: 'A1', bid_count: 2, highest_bid: 1500.5 },
    { id: 'P2', name: '@sum', description: '-1', status: 'unassigned', auction_id: null, bid_count: 0, highest_bid: 0 },
  ],
};

describe('reports model', () => {
  it('counts auctions, active auctions, products and sums money exactly', () => {
    expect(reportStats(data)).toEqual({ totalAuctions: 3, activeAuctions: 1, totalProducts: 2, revenue: 1500.5, pending: 200.25 });
    expect(reportStats({ auctions: [], products: [] })).toEqual({ totalAuctions: 0, activeAuctions: 0, totalProducts: 0, revenue: 0, pending: 0 });
  });

  it('names the files per tab', () => {
    expect(reportFilename('auctions')).toBe('auctions-report.csv');
    expect(reportFilename('products')).toBe('products-report.csv');
  });

  it('writes the auctions CSV with quoting and formula cells defused', () => {
    expect(reportCsv('auctions', data).split('\r\n')).toEqual([
      'id,name,valid_until,status,product_count,bid_count,revenue,pending',
      `A1,"'=HYPERLINK(""x"")",2026-03-01T10:00:00.000Z,settled,2,3,1500.50,0`,
      'A2,"Art, ""modern""",2026-04-01T10:00:00.000Z,active,1,1,0,200.25',
      'A3,Empty,2026-05-01T10:00:00.000Z,ended,0,0,0,0',
    ]);
  });

  it('writes the products CSV with multi-line cells quoted and +, @ defused (a text that is only a number, -1, runs nothing)', () => {
    expect(reportCsv('products', data)).toBe(
      'id,name,description,status,auction_id,bid_count,highest_bid\r\n'
      + `P1,'+cmd,"line one\nline two",sold,A1,2,1500.50\r\n`
      + `P2,'@sum,-1,unassigned,,0,0`,
    );
  });

  it('charts only auctions with money, largest first', () => {
    expect(chartRows(data.auctions).map((a) => a.id)).toEqual(['A1', 'A2']);
  });
});
