package machines

import (
	"strconv"

	fly "github.com/superfly/fly-go"
)

// Fly's regions, as GET /v1/platform/regions lists them: the ones a machine
// can be placed in, and the deprecated ones, each folded into a nearby
// region (flyctl's launch maps them the same way).
var platformRegions = []fly.Region{
	region("ams", "Amsterdam, Netherlands", 52.374342, 4.895439, fly.Europe),
	region("arn", "Stockholm, Sweden", 59.6512, 17.9178, fly.Europe),
	region("bom", "Mumbai, India", 19.0974, 72.8745, fly.AsiaPacific),
	region("cdg", "Paris, France", 48.860875, 2.353477, fly.Europe),
	region("dfw", "Dallas, Texas (US)", 32.778287, -96.7984, fly.NorthAmerica),
	region("ewr", "Secaucus, NJ (US)", 40.789543, -74.056534, fly.NorthAmerica),
	region("fra", "Frankfurt, Germany", 50.1167, 8.6833, fly.Europe),
	region("gru", "Sao Paulo, Brazil", -23.549664, -46.654423, fly.SouthAmerica),
	region("iad", "Ashburn, Virginia (US)", 39.02214, -77.462556, fly.NorthAmerica),
	region("jnb", "Johannesburg, South Africa", -26.13629, 28.20298, fly.Africa),
	region("lax", "Los Angeles, California (US)", 33.9416, -118.4085, fly.NorthAmerica),
	region("lhr", "London, United Kingdom", 51.516434, -0.125656, fly.Europe),
	region("nrt", "Tokyo, Japan", 35.621306, 139.741595, fly.AsiaPacific),
	region("ord", "Chicago, Illinois (US)", 41.891544, -87.630386, fly.NorthAmerica),
	region("sin", "Singapore, Singapore", 1.3, 103.8, fly.AsiaPacific),
	region("sjc", "San Jose, California (US)", 37.351601, -121.896262, fly.NorthAmerica),
	region("syd", "Sydney, Australia", -33.866034, 151.209473, fly.AsiaPacific),
	region("yyz", "Toronto, Canada", 43.644705, -79.386616, fly.NorthAmerica),

	deprecated("atl", "Atlanta, Georgia (US)", 33.6407, -84.4277, fly.NorthAmerica),
	deprecated("bog", "Bogotá, Colombia", 4.70159, -74.1469, fly.SouthAmerica),
	deprecated("bos", "Boston, Massachusetts (US)", 42.366978, -71.022362, fly.NorthAmerica),
	deprecated("den", "Denver, Colorado (US)", 39.7392, -104.9903, fly.NorthAmerica),
	deprecated("eze", "Ezeiza, Argentina", -34.8222, -58.5358, fly.SouthAmerica),
	deprecated("gdl", "Guadalajara, Mexico", 20.5217, -103.3109, fly.NorthAmerica),
	deprecated("gig", "Rio de Janeiro, Brazil", -22.8099, -43.2505, fly.SouthAmerica),
	deprecated("hkg", "Hong Kong, Hong Kong", 22.250971, 114.203224, fly.AsiaPacific),
	deprecated("mad", "Madrid, Spain", 40.4381, -3.82, fly.Europe),
	deprecated("mia", "Miami, Florida (US)", 25.7877, -80.2241, fly.NorthAmerica),
	deprecated("otp", "Bucharest, Romania", 44.4325, 26.1039, fly.Europe),
	deprecated("phx", "Phoenix, Arizona (US)", 33.416084, -112.009482, fly.NorthAmerica),
	deprecated("qro", "Querétaro, Mexico", 20.6192, -100.1854, fly.NorthAmerica),
	deprecated("scl", "Santiago, Chile", -33.4489, -70.6693, fly.SouthAmerica),
	deprecated("sea", "Seattle, Washington (US)", 47.6097, -122.3331, fly.NorthAmerica),
	deprecated("waw", "Warsaw, Poland", 52.1657, 20.9671, fly.Europe),
	deprecated("yul", "Montreal, Canada", 45.48647, -73.75549, fly.NorthAmerica),
}

// regionFolded is where each deprecated region's machines now go.
var regionFolded = map[string]string{
	"atl": "dfw", "den": "dfw", "mia": "dfw", "gdl": "dfw", "qro": "dfw", "bos": "ewr", "phx": "lax",
	"sea": "sjc", "yul": "yyz", "waw": "ams", "mad": "cdg", "otp": "fra", "bog": "gru", "gig": "gru",
	"scl": "gru", "eze": "gru", "hkg": "sin",
}

func region(code, name string, lat, lon float32, geo fly.GeoRegion) fly.Region {
	return fly.Region{Code: code, Name: name, Latitude: lat, Longitude: lon, GatewayAvailable: true, GeoRegion: geo}
}

func deprecated(code, name string, lat, lon float32, geo fly.GeoRegion) fly.Region {
	r := region(code, name, lat, lon, geo)
	r.Deprecated, r.GatewayAvailable = true, false
	return r
}

// regionRefused is why a machine cannot be placed in code ("" when it can).
func regionRefused(code string) string {
	if to, ok := regionFolded[code]; ok {
		return "region " + strconv.Quote(code) + " is deprecated, use " + strconv.Quote(to)
	}
	for _, r := range platformRegions {
		if r.Code == code {
			return ""
		}
	}
	return "invalid region " + strconv.Quote(code)
}
