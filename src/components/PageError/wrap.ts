import { createElement, type ComponentType } from 'react'
import PageError from './index'

/** A page component inside the page error boundary (components/PageError): what every page exports. */
export function withPageError<P extends object> (Page: ComponentType<P>): ComponentType<P> {
  function PageWithErrorBoundary (props: P) {
    return createElement(PageError, null, createElement(Page, props))
  }
  PageWithErrorBoundary.displayName = `withPageError(${Page.displayName || Page.name || 'Page'})`
  return PageWithErrorBoundary
}
