/**
 * H5 first paint: index.html shows a copy of the first page before the JavaScript runs (the login
 * page or home's skeleton, prerendered at build time by scripts/prerender.js), or a generic splash on
 * other routes. When the app's first page has rendered, the copy goes in the same frame: PageShell
 * calls takeOver() from a layout effect, so the page and the copy's removal are painted together and
 * nothing jumps (the copy is the same markup with the same styles, fixed over the viewport).
 *
 * Whatever was typed into the copy's fields before the app arrived is carried over into the page's
 * fields (the same fields in the same order), with the focus.
 */

/** Whether index.html's first paint (the prerendered copy or the splash) is still up. @h5only */
export function firstPaintShown (): boolean {
  return !!(document.getElementById('prerender') || document.getElementById('splash'))
}

/** Puts each typed value of the copy into the app's field at the same position (input events, as typing would). @h5only */
function carryInput (copy: HTMLElement): void {
  const fields = (root: ParentNode) => [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
  const typed = fields(copy)
  // nothing typed (the usual case): no look at what is on screen, which would make the browser lay out
  // the app's whole first page inside this commit (5-6 ms on home at 1x, counted as blocking time)
  if (!typed.some(f => f.value)) return
  // the view on screen (the copy holds one per page and language)
  const from = typed.filter(f => f.getClientRects().length > 0)
  const app = document.getElementById('app')
  if (!app || !from.some(f => f.value)) return
  const to = fields(app)
  if (to.length !== from.length) return
  from.forEach((field, i) => {
    const target = to[i]
    if (!field.value || target.value) return
    const proto = target instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(target, field.value)
    target.dispatchEvent(new Event('input', { bubbles: true }))
    if (document.activeElement === field) target.focus()
  })
}

/** The app's first page is on screen: the splash or the prerendered copy goes. @h5only */
export function takeOver (): void {
  document.getElementById('splash')?.remove()
  const copy = document.getElementById('prerender')
  if (!copy) return
  try {
    carryInput(copy)
  } finally {
    copy.remove()
    document.querySelector('style[data-prerender-css]')?.remove()
  }
}
