/**
 * The cities a launch event can be held in and a shopper can travel from (issue 24, launch events):
 * each with its name in both languages, the name the train query takes (a city name 12306 and Juhe
 * accept, as types/travel.ts's station pattern), and the IATA code of the city's airports for the
 * flight query (null: no airport; trains only). Codes are IATA's metropolitan-area codes where a city
 * has several airports (BJS, SHA) and the airport's code otherwise (Xi'an's area code is SIA).
 * A plain module: the pages read it without schema code.
 */
export interface City {
  zh: string
  en: string
  /** What /api/queryTickets takes as from or to. */
  station: string
  /** What /api/queryFlight takes (three letters), or null when the city has no airport. */
  airport: string | null
}

export const CITIES = [
  { zh: '北京', en: 'Beijing', station: '北京', airport: 'BJS' },
  { zh: '上海', en: 'Shanghai', station: '上海', airport: 'SHA' },
  { zh: '广州', en: 'Guangzhou', station: '广州', airport: 'CAN' },
  { zh: '深圳', en: 'Shenzhen', station: '深圳', airport: 'SZX' },
  { zh: '成都', en: 'Chengdu', station: '成都', airport: 'CTU' },
  { zh: '重庆', en: 'Chongqing', station: '重庆', airport: 'CKG' },
  { zh: '杭州', en: 'Hangzhou', station: '杭州', airport: 'HGH' },
  { zh: '南京', en: 'Nanjing', station: '南京', airport: 'NKG' },
  { zh: '武汉', en: 'Wuhan', station: '武汉', airport: 'WUH' },
  { zh: '西安', en: "Xi'an", station: '西安', airport: 'SIA' },
  { zh: '天津', en: 'Tianjin', station: '天津', airport: 'TSN' },
  { zh: '苏州', en: 'Suzhou', station: '苏州', airport: null },
  { zh: '长沙', en: 'Changsha', station: '长沙', airport: 'CSX' },
  { zh: '郑州', en: 'Zhengzhou', station: '郑州', airport: 'CGO' },
  { zh: '青岛', en: 'Qingdao', station: '青岛', airport: 'TAO' },
  { zh: '厦门', en: 'Xiamen', station: '厦门', airport: 'XMN' },
  { zh: '福州', en: 'Fuzhou', station: '福州', airport: 'FOC' },
  { zh: '合肥', en: 'Hefei', station: '合肥', airport: 'HFE' },
  { zh: '济南', en: 'Jinan', station: '济南', airport: 'TNA' },
  { zh: '沈阳', en: 'Shenyang', station: '沈阳', airport: 'SHE' },
  { zh: '大连', en: 'Dalian', station: '大连', airport: 'DLC' },
  { zh: '哈尔滨', en: 'Harbin', station: '哈尔滨', airport: 'HRB' },
  { zh: '长春', en: 'Changchun', station: '长春', airport: 'CGQ' },
  { zh: '昆明', en: 'Kunming', station: '昆明', airport: 'KMG' },
  { zh: '贵阳', en: 'Guiyang', station: '贵阳', airport: 'KWE' },
  { zh: '南宁', en: 'Nanning', station: '南宁', airport: 'NNG' },
  { zh: '南昌', en: 'Nanchang', station: '南昌', airport: 'KHN' },
  { zh: '太原', en: 'Taiyuan', station: '太原', airport: 'TYN' },
  { zh: '石家庄', en: 'Shijiazhuang', station: '石家庄', airport: 'SJW' },
  { zh: '兰州', en: 'Lanzhou', station: '兰州', airport: 'LHW' },
  { zh: '乌鲁木齐', en: 'Urumqi', station: '乌鲁木齐', airport: 'URC' },
  { zh: '海口', en: 'Haikou', station: '海口', airport: 'HAK' },
  { zh: '三亚', en: 'Sanya', station: '三亚', airport: 'SYX' },
  { zh: '宁波', en: 'Ningbo', station: '宁波', airport: 'NGB' },
  { zh: '无锡', en: 'Wuxi', station: '无锡', airport: 'WUX' }
] as const satisfies readonly City[]

export type CityName = typeof CITIES[number]['zh']

/** The Chinese names, the value a request carries. */
export const CITY_NAMES = CITIES.map(c => c.zh) as readonly CityName[]

export const cityOf = (zh: string): City | undefined => (CITIES as readonly City[]).find(c => c.zh === zh)
