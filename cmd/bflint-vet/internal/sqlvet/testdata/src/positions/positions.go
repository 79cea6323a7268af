package positions

import "database/sql"

const appendSQL = "INSERT INTO analytics.fct_orders SELECT * FROM staging.orders"

func f(db *sql.DB) {
	db.Exec("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders") // want `BF201`
	db.Exec(`
		INSERT INTO analytics.fct_orders SELECT * FROM staging.orders`) // want `BF201`
	db.Exec("INSERT INTO analytics.fct_orders\tSELECT * FROM staging.orders") // want `BF201`
	db.Exec(appendSQL)                                                        // want `BF201`
	db.Exec("INSERT INTO " + "analytics.fct_orders SELECT 1")                 // want `BF201`
}
