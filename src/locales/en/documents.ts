import type { RestDict } from '../types'

/** English of ../zh/documents.ts. */
const documents: Pick<RestDict, 'agreements' | 'webView'> = {
  agreements: {
    serviceTitle: 'Terms of Service',
    serviceBody: 'Welcome to Pickbox.\n1. Designs, rarities, per-box odds and value ranges are shown before you buy; buying means you have seen them.\n2. Every case publishes a commitment (sha256) before it goes on sale and reveals its arrangement and salt once sold out or retired, so anyone can check it.\n3. A single box costs at most 200 yuan; under 8 years nobody can buy, from 8 to 17 a guardian must consent and a daily limit applies.\n4. Prizes never turn into cash; recycling gives credit, which cannot be withdrawn.\n5. Unspent top-up cash can be withdrawn after review and goes back the way it came.',
    privacyTitle: 'Privacy Policy',
    fairnessTitle: 'How every box can be checked',
    fairnessBody: 'Before a case goes on sale, which design sits in each of its boxes is fixed, and a SHA-256 commitment to that arrangement is published.\n1. Before you pay: the series page lists every design with its rarity, per-box odds and the value range, and the purchase page shows them again.\n2. While the case is on sale: the commitment is public and the arrangement and salt stay secret, so nobody can move a box after it is sold.\n3. Once it sells out or is retired: the arrangement and salt are published, and anyone can recompute the hash on their phone with "Verify" on a prize\'s page and compare it with the commitment.\n4. Combining: each draw is HMAC-SHA256(server seed, client seed:nonce); the seed\'s hash is shown first, rotating the seed reveals it, and the result page checks the draw on your phone.\n5. The rare and hidden wins in the live feed are real draws, with names hidden.',
    privacyBody: 'We collect only what the service needs: your account (user name, phone or e-mail), your orders and prizes, and your shipping addresses.\n1. Passwords are stored as salted argon2id hashes; codes and session tokens only as hashes.\n2. Wins shown in the live feed hide your name.\n3. In Account security you can see and end your sessions and ask for an export of your data.\n4. We never sell your personal information.'
  },
  webView: {
    missingUrl: 'Please provide a link address',
    notAllowed: 'This page is not one of the shop\'s, so it cannot be opened here. If someone sent you this link, do not enter an account, a password or a payment there.',
    openExternal: 'Open in browser'
  }
}

export default documents
