select * from marts.revenue
