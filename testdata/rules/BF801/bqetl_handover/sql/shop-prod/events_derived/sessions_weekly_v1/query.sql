SELECT submission_date, COUNT(DISTINCT client_id) AS clients FROM `shop-prod.events_derived.sessions_v1` WHERE submission_date = @submission_date GROUP BY 1
