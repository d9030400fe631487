import { createContext, useContext } from 'react'
import { localeStore, type LocaleStore } from './locale'
import { sessionStore, type SessionStore } from './session'

export interface Stores { session: SessionStore; locale: LocaleStore }

export const stores: Stores = { session: sessionStore, locale: localeStore }
export const StoresContext = createContext<Stores>(stores)

export const useStores = () => useContext(StoresContext)
export const useSession = () => useContext(StoresContext).session
export const useLocale = () => useContext(StoresContext).locale
